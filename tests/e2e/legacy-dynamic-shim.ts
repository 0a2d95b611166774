/**
 * The `__provider` that versions before issue 26 wrote into every dynamic resource's state: the
 * provider object of dynamic/shim.ts as `pulumi.dynamic.Resource` serialized it, whose functions
 * call the runtime's per-operation exports with the type first. Stacks made by those versions keep
 * it in their resources' outputs, which refresh and destroy use: tests/e2e/dynamic-shim.test.ts runs
 * them through it. Captured from a stack those versions made; only the type differs between types.
 */
export const legacyDynamicShim = (type: string): string => `exports.handler = __f0;

var __provider = {configure: __f1, check: __f2, diff: __f3, create: __f4, read: __f5, update: __f6, delete: __f7};

function __f1(__0) {
  return (function() {
    with({ RUNTIME_MODULE: "pulumi-restcloud/dist/provider/dynamic/runtime", this: undefined, arguments: undefined }) {

return async (req) => require(RUNTIME_MODULE).configure(req.config);

    }
  }).apply(undefined, undefined).apply(this, arguments);
}

function __f2(__0, __1) {
  return (function() {
    with({ RUNTIME_MODULE: "pulumi-restcloud/dist/provider/dynamic/runtime", type: ${JSON.stringify(type)}, this: undefined, arguments: undefined }) {

return async (olds, news) => require(RUNTIME_MODULE).check(type, olds, news);

    }
  }).apply(undefined, undefined).apply(this, arguments);
}

function __f3(__0, __1, __2) {
  return (function() {
    with({ RUNTIME_MODULE: "pulumi-restcloud/dist/provider/dynamic/runtime", type: ${JSON.stringify(type)}, this: undefined, arguments: undefined }) {

return async (id, olds, news) => require(RUNTIME_MODULE).diff(type, id, olds, news);

    }
  }).apply(undefined, undefined).apply(this, arguments);
}

function __f4(__0) {
  return (function() {
    with({ RUNTIME_MODULE: "pulumi-restcloud/dist/provider/dynamic/runtime", type: ${JSON.stringify(type)}, this: undefined, arguments: undefined }) {

return async (inputs) => require(RUNTIME_MODULE).create(type, inputs);

    }
  }).apply(undefined, undefined).apply(this, arguments);
}

function __f5(__0, __1) {
  return (function() {
    with({ RUNTIME_MODULE: "pulumi-restcloud/dist/provider/dynamic/runtime", type: ${JSON.stringify(type)}, this: undefined, arguments: undefined }) {

return async (id, props) => require(RUNTIME_MODULE).read(type, id, props);

    }
  }).apply(undefined, undefined).apply(this, arguments);
}

function __f6(__0, __1, __2) {
  return (function() {
    with({ RUNTIME_MODULE: "pulumi-restcloud/dist/provider/dynamic/runtime", type: ${JSON.stringify(type)}, this: undefined, arguments: undefined }) {

return async (id, olds, news) => require(RUNTIME_MODULE).update(type, id, olds, news);

    }
  }).apply(undefined, undefined).apply(this, arguments);
}

function __f7(__0, __1) {
  return (function() {
    with({ RUNTIME_MODULE: "pulumi-restcloud/dist/provider/dynamic/runtime", type: ${JSON.stringify(type)}, this: undefined, arguments: undefined }) {

return async (id, props) => require(RUNTIME_MODULE).delete(type, id, props);

    }
  }).apply(undefined, undefined).apply(this, arguments);
}

function __f0() {
  return (function() {
    with({ provider: __provider, this: undefined, arguments: undefined }) {

return () => provider;

    }
  }).apply(undefined, undefined).apply(this, arguments);
}
`;
