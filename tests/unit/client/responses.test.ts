/** Record schemas and answer unwrapping: the tolerances of api-notes.md, without a server. */
import { AREAS, ApiError, ApiInputError, type AnyOperation } from "../../../provider/client";
import { parseResponse, validateInput } from "../../../provider/client/caller";

const answer = (operation: AnyOperation, body: unknown, status = 200) => {
  const lines: string[] = [];
  const text = body === undefined ? "" : JSON.stringify(body);
  const value = parseResponse(operation, { status, text }, (line) => lines.push(line));
  return { value, lines };
};

const vpc = { uuid: "v1", name: "web", getcIDR: "10.1.0.0/16", zoneUuid: "z", status: "Active", isActive: true };

describe("envelopes", () => {
  test("a list is unwrapped to its typed records", () => {
    const { value, lines } = answer(AREAS.vpc.list, { count: 1, listVpcResponse: [vpc] });
    expect(value).toEqual([vpc]);
    expect(lines).toEqual([]);
  });

  test("a create answers its one record", () => {
    expect(answer(AREAS.vpc.create, { count: 1, listVpcResponse: [vpc] }).value).toEqual(vpc);
  });

  test("a create whose envelope is empty is an error, not undefined", () => {
    expect(() => answer(AREAS.vpc.create, { count: 0, listVpcResponse: [] })).toThrow(/no record in listVpcResponse/);
  });

  test("a get answers the record or undefined", () => {
    expect(answer(AREAS.vpc.get, { count: 1, listVpcResponse: [vpc] }).value).toEqual(vpc);
    expect(answer(AREAS.vpc.get, { count: 0, listVpcResponse: [] }).value).toBeUndefined();
  });

  test("the VPC CIDR as cIDR arrives as getcIDR, one field", () => {
    const { cIDR: _dropped, ...expected } = { ...vpc, cIDR: vpc.getcIDR };
    const { getcIDR, ...rest } = vpc;
    const value = answer(AREAS.vpc.list, { count: 1, listVpcResponse: [{ ...rest, cIDR: getcIDR }] }).value;
    expect(value).toEqual([expected]);
    expect((value as Array<Record<string, unknown>>)[0]).not.toHaveProperty("cIDR");
  });

  test("duplicate records are dropped by uuid, and the debug log says so", () => {
    const volume = { uuid: "vol", name: "data", zoneUuid: "z" };
    const { value, lines } = answer(AREAS.volume.list, { count: 2, listVolumeResponse: [volume, volume] });
    expect(value).toEqual([volume]);
    expect(lines).toEqual(["volumeList: dropped 1 duplicate record(s) (same uuid)"]);
  });

  test("a count that disagrees with the array is tolerated and logged", () => {
    const { value, lines } = answer(AREAS.vpc.list, { count: 3, listVpcResponse: [vpc] });
    expect(value).toEqual([vpc]);
    expect(lines).toEqual(["vpcList: count says 3 but 1 record(s) arrived"]);
  });

  test("the tags envelope under kongCreateTagsResponse is read, and logged", () => {
    const tag = { uuid: "t", key: "env", value: "prod", resourceUuid: "v1", resourceType: "Vpc", isActive: true };
    const { value, lines } = answer(AREAS.resourceTag.list, { count: 1, kongCreateTagsResponse: [tag] });
    expect(value).toEqual([tag]);
    expect(lines).toEqual(["resourceTagsList: envelope key kongCreateTagsResponse (spec: svcCreateTagsResponse)"]);
  });

  test("numbers as strings are coerced to the spec's types", () => {
    const volume = { uuid: "vol", createdTimeStamp: "1700000000000", isShrink: "false", storageDiskSize: 20 };
    const { value } = answer(AREAS.volume.list, { count: "1", listVolumeResponse: [volume] });
    expect(value).toEqual([{ uuid: "vol", createdTimeStamp: 1700000000000, isShrink: false, storageDiskSize: "20" }]);
  });

  test("catalog prices as strings become numbers", () => {
    expect(answer(AREAS.costEstimate.ipCost, { ipCost: "2.5" }).value).toEqual({ ipCost: 2.5 });
  });

  test("unknown fields pass through and nulls are dropped", () => {
    const { value } = answer(AREAS.vpc.list, {
      count: 1,
      listVpcResponse: [{ ...vpc, description: null, vendorField: { a: 1 } }],
    });
    expect(value).toEqual([{ ...vpc, vendorField: { a: 1 } }]);
  });

  test("an empty answer to an update (202 without a body) is an empty list", () => {
    expect(answer(AREAS.vpc.update, undefined, 202).value).toEqual([]);
  });

  test("a record of the wrong shape is an UNEXPECTED_RESPONSE naming the field, not its value", () => {
    try {
      answer(AREAS.vpc.list, { count: 1, listVpcResponse: [{ ...vpc, isActive: "secret-looking-value" }] });
      throw new Error("no error");
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).errorCode).toBe("UNEXPECTED_RESPONSE");
      expect((error as ApiError).message).toMatch(/listVpcResponse\[0\]: field "isActive"/);
      expect((error as ApiError).message).not.toMatch(/secret-looking-value/);
    }
  });

  test("a list read for some of its records parses only those: another's wrong shape does not fail it", () => {
    const broken = { ...vpc, uuid: "v2", isActive: "not-a-boolean" };
    const body = JSON.stringify({ count: 3, listVpcResponse: [vpc, broken, { ...vpc, uuid: 7 }] });
    const read = (keep: (record: Record<string, unknown>) => boolean) =>
      parseResponse(AREAS.vpc.list, { status: 200, text: body }, () => undefined, keep);
    // A raw uuid may be a number; the parse makes it text.
    expect(read((record) => record.uuid === "v1" || String(record.uuid) === "7")).toEqual([vpc, { ...vpc, uuid: "7" }]);
    expect(() => read((record) => record.uuid === "v2")).toThrow(/listVpcResponse\[1\]: field "isActive"/);
    expect(() => parseResponse(AREAS.vpc.list, { status: 200, text: body }, () => undefined)).toThrow(
      /field "isActive"/,
    );
  });

  test("a body that is not JSON is an UNEXPECTED_RESPONSE", () => {
    expect(() => parseResponse(AREAS.vpc.list, { status: 200, text: "<html>" }, () => undefined)).toThrow(/not JSON/);
  });
});

describe("bare answers", () => {
  test.each([
    ["true", true],
    ["{} (some deployments)", {}],
    ["an empty 204", undefined],
  ])("a boolean delete answering %s is a success", (_name, body) => {
    expect(answer(AREAS.vpc.delete, body, body === undefined ? 204 : 200).value).toBe(true);
  });

  test("a delete answering false is an error", () => {
    expect(() => answer(AREAS.vpc.delete, false)).toThrow(/answered false/);
  });

  test("the volume delete answers {uuid, status}, and a bare true is accepted too", () => {
    expect(answer(AREAS.volume.delete, { uuid: "vol", status: "Deleted" }).value).toEqual({
      uuid: "vol",
      status: "Deleted",
    });
    expect(answer(AREAS.volume.delete, true).value).toEqual({});
  });

  test("List Cluster answering one object is read as a one-element array", () => {
    const cluster = { uuid: "c1", name: "k", state: "Running", size: 2 };
    const { value, lines } = answer(AREAS.kubernetes.list, cluster);
    expect(value).toEqual([cluster]);
    expect(lines).toEqual(["listCluster: answered one object, not an array"]);
    expect(answer(AREAS.kubernetes.list, [cluster, cluster]).value).toEqual([cluster]);
    expect(answer(AREAS.kubernetes.list, []).value).toEqual([]);
  });

  test("the not-shown answers are kept as they are", () => {
    expect(answer(AREAS.costEstimate.tax, [{ anything: 1 }]).value).toEqual([{ anything: 1 }]);
  });
});

describe("inputs", () => {
  const fieldOf = (operation: AnyOperation, input: unknown): string => {
    try {
      validateInput(operation, input);
    } catch (error) {
      expect(error).toBeInstanceOf(ApiInputError);
      return (error as ApiInputError).field;
    }
    throw new Error("accepted");
  };

  test("a required field that is missing is named", () => {
    expect(fieldOf(AREAS.vpc.create, { name: "n", zoneUuid: "z", getcIDR: "10.0.0.0/16" })).toBe("vpcOfferingUuid");
    expect(fieldOf(AREAS.vpc.list, {})).toBe("zoneUuid");
  });

  test("CIDRs, ports, port order, enums and types are checked", () => {
    const vpc = { name: "n", zoneUuid: "z", vpcOfferingUuid: "o" };
    expect(fieldOf(AREAS.vpc.create, { ...vpc, getcIDR: "10.0.0.0/33" })).toBe("getcIDR");
    expect(fieldOf(AREAS.vpc.create, { ...vpc, getcIDR: "300.0.0.0/16" })).toBe("getcIDR");
    const rule = { ipAddressUuid: "ip", protocol: "TCP" };
    expect(fieldOf(AREAS.firewallRule.create, { ...rule, startPort: "0" })).toBe("startPort");
    expect(fieldOf(AREAS.firewallRule.create, { ...rule, startPort: "70000" })).toBe("startPort");
    expect(fieldOf(AREAS.firewallRule.create, { ...rule, startPort: "90", endPort: "80" })).toBe("endPort");
    expect(fieldOf(AREAS.firewallRule.create, { ...rule, cidrList: "0.0.0.0/0,bad" })).toBe("cidrList");
    expect(fieldOf(AREAS.firewallRule.create, { ...rule, protocol: "SCTP" })).toBe("protocol");
    expect(fieldOf(AREAS.instance.stop, { uuid: "i", forceStop: "yes" })).toBe("forceStop");
    expect(fieldOf(AREAS.volume.create, { name: "v", zoneUuid: "z", storageOfferingUuid: "s", diskSize: 1.5 })).toBe(
      "diskSize",
    );
    expect(fieldOf(AREAS.loadBalancerRule.create, { svcLbSticky: { cookie: 1 } })).toBe("name");
  });

  test("valid inputs pass, with ports given as numbers sent as strings", () => {
    expect(
      validateInput(AREAS.firewallRule.create, {
        ipAddressUuid: "ip",
        protocol: "TCP",
        startPort: 80,
        endPort: "443",
        cidrList: "0.0.0.0/0, 10.0.0.0/8",
      }),
    ).toEqual({
      ipAddressUuid: "ip",
      protocol: "TCP",
      startPort: "80",
      endPort: "443",
      cidrList: "0.0.0.0/0, 10.0.0.0/8",
    });
  });

  test("the operations whose parameters are not shown take any scalars", () => {
    expect(validateInput(AREAS.instance.attachIso, { uuid: "i", isoUuid: "iso" })).toEqual({
      uuid: "i",
      isoUuid: "iso",
    });
  });
});
