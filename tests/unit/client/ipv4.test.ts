/**
 * One reading of IPv4 CIDR blocks (client/ipv4.ts) for the client's input checks and the engine's
 * argument validators, each keeping its own rule: the engine refuses host bits, the client does not.
 */
import { parseCidr } from "../../../provider/client/ipv4";
import { cidr, cidrList } from "../../../provider/client/schema";
import { cidrBlock, cidrList as argumentCidrList } from "../../../provider/engine/validators";

test("parseCidr: the address, its network and the prefix; undefined for what is no CIDR block", () => {
  expect(parseCidr("10.1.2.3/16")).toEqual({ address: 0x0a010203, network: 0x0a010000, prefix: 16 });
  expect(parseCidr(" 0.0.0.0/0 ")).toEqual({ address: 0, network: 0, prefix: 0 });
  for (const bad of ["10.1.0.0", "10.1.0.0/33", "256.1.0.0/16", "010.1.0.0/16", "10.1.0.0/08", "10.1.0/16", "x"])
    expect(parseCidr(bad)).toBeUndefined();
});

test("the client accepts host bits and trims; the engine refuses host bits", () => {
  expect(cidr.parse(" 10.1.2.3/16 ")).toBe("10.1.2.3/16");
  expect(cidr.safeParse("10.1.0.0/33").error?.issues[0].message).toBe("must be a CIDR block such as 10.1.0.0/16");
  expect(cidrList.safeParse("10.0.0.0/8, bad").success).toBe(false);
  expect(cidrBlock.safeParse("10.1.0.0/16").success).toBe(true);
  expect(cidrBlock.safeParse("10.1.2.3/16").error?.issues[0].message).toBe(
    '"10.1.2.3/16" has host bits set; the network address is required',
  );
  expect(cidrBlock.safeParse("010.1.0.0/16").error?.issues[0].message).toBe(
    '"010.1.0.0/16" is not an IPv4 CIDR block such as 10.1.0.0/16',
  );
  expect(argumentCidrList.safeParse("10.1.2.3/16, 0.0.0.0/0").success).toBe(true);
});
