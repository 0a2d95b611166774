// Public load-balancer rules.
import { badInput, type AreaRegistrar } from "../core";
import { accepted, registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readEnum, readString, type Inputs } from "../http";
import {
  ALGORITHMS,
  createLoadBalancerRule,
  deleteLoadBalancerRule,
  listLoadBalancerRules,
  STICKINESS_METHODS,
  updateLoadBalancerRule,
  type Stickiness,
} from "../model/loadbalancerrule";

const KEY = "listLoadBalancerRuleResponse";
const required = { required: true } as const;

/** The optional svcLbSticky object; its fields are read like any input, named `svcLbSticky.<field>` in errors. */
function stickiness(b: Inputs): Stickiness | undefined {
  const value = b?.svcLbSticky;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw badInput("svcLbSticky", "must be an object");
  const s = value as Inputs;
  const field = (name: string) => {
    try {
      return readString(s, name);
    } catch {
      throw badInput(`svcLbSticky.${name}`, "must be a string");
    }
  };
  const method = field("stickinessMethod");
  if (method !== undefined && !(STICKINESS_METHODS as readonly string[]).includes(method)) {
    throw badInput("svcLbSticky.stickinessMethod", `must be one of ${STICKINESS_METHODS.join(", ")}`);
  }
  return {
    stickyHoldTime: field("stickyHoldTime"),
    stickinessMethod: method as Stickiness["stickinessMethod"],
    stickinessName: field("stickinessName"),
    uuid: field("uuid"),
    cookieName: field("cookieName"),
  };
}

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/loadbalancerrule/createLoadBalancerRule",
    operation: "createLoadBalancerRule",
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      envelope(KEY, [
        createLoadBalancerRule(scope, ctx, {
          name: readString(body, "name", required),
          publicIpUuid: readString(body, "publicIpUuid", required),
          networkUuid: readString(body, "networkUuid"),
          publicport: readString(body, "publicport", required),
          privateport: readString(body, "privateport", required),
          algorithm: readEnum(body, "algorithm", ALGORITHMS, required),
          stickinessPolicyUuid: readString(body, "stickinessPolicyUuid"),
          svcLbSticky: stickiness(body),
        }),
      ]),
  },
  {
    method: "GET",
    path: "/restapi/loadbalancerrule/loadBalancerRuleList",
    operation: "loadBalancerRuleList",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      envelope(
        KEY,
        listLoadBalancerRules(scope, ctx, {
          zoneUuid: readString(query, "zoneUuid", required),
          uuid: readString(query, "uuid"),
          ipAddressUuid: readString(query, "ipAddressUuid"),
        }),
      ),
  },
  {
    method: "PUT",
    path: "/restapi/loadbalancerrule/updateLoadBalancerRule",
    operation: "updateLoadBalancerRule",
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      accepted(
        envelope(KEY, [
          updateLoadBalancerRule(scope, ctx, {
            uuid: readString(body, "uuid", required),
            name: readString(body, "name"),
            algorithm: readEnum(body, "algorithm", ALGORITHMS),
          }),
        ]),
      ),
  },
  {
    method: "DELETE",
    path: "/restapi/loadbalancerrule/deleteLoadBalancerRule/:uuid",
    operation: "deleteLoadBalancerRule",
    mutating: true,
    handle: ({ params, scope }) => deleteLoadBalancerRule(scope, readString(params, "uuid", required)),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
