/** Which raw records of a shared list get parsed (coalesce.ts keeperOf): those any caller filters on, and any it cannot tell. */
import { keeperOf } from "../../../provider/client/coalesce";

test("a record is parsed when a caller asks for it, by uuid or by another field, as text, a number or a boolean", () => {
  const keep = keeperOf([
    { field: "uuid", value: "a" },
    { field: "uuid", value: "7" },
    { field: "resourceUuid", value: "r" },
  ]);
  expect(keep({ uuid: "a" })).toBe(true);
  expect(keep({ uuid: 7 })).toBe(true);
  expect(keep({ uuid: "b", resourceUuid: "r" })).toBe(true);
  expect(keep({ uuid: "b", resourceUuid: "s" })).toBe(false);
  expect(keep({ uuid: { nested: "a" }, resourceUuid: "s" })).toBe(false);
  const named = keeperOf([{ field: "name", value: "true" }]);
  expect(named({ name: true })).toBe(true);
  expect(named({ name: "web" })).toBe(false);
});

test("a record without the field (spelt otherwise) is parsed, for the callers' filters to pick from", () => {
  const keep = keeperOf([{ field: "uuid", value: "a" }]);
  expect(keep({ id: "a" })).toBe(true);
  expect(keep({ uuid: null })).toBe(true);
});
