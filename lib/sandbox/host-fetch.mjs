// @ts-check
// The `fetch` of user code, when the caller gave a capability: each call is a QuickJS promise that
// the worker settles when the server's thread answers (worker.mjs carries the request there).

/**
 * @typedef {import("quickjs-emscripten-core").QuickJSContext} Context
 * @typedef {import("quickjs-emscripten-core").QuickJSHandle} Handle
 * @typedef {import("./types").SandboxFetchRequest} SandboxFetchRequest
 * @typedef {import("./types").SandboxFetchResponse} SandboxFetchResponse
 */

/** Most `fetch` calls of one run. */
export const MAX_FETCHES = 50;

/**
 * The bridge of `fetch`: each call becomes a QuickJS promise settled when the server's thread
 * answers; `next` waits for the next answer (or the deadline). An answer QuickJS has no room for
 * is not copied in (the copy's malloc is unchecked, engine.mjs): `exhausted` ends the run instead.
 * @param {Context} vm
 * @param {(request: SandboxFetchRequest) => Promise<SandboxFetchResponse>} requestFetch
 * @param {(bytes: number) => boolean} hasRoom
 */
export function hostCalls(vm, requestFetch, hasRoom) {
  let calls = 0;
  let closed = false;
  let exhausted = false;
  /** @type {Set<import("quickjs-emscripten-core").QuickJSDeferredPromise>} */
  const pending = new Set();
  /** @type {(() => void) | undefined} */
  let wake;
  /** @type {import("quickjs-emscripten-core").VmFunctionImplementation<Handle>} */
  const fetch = (urlHandle, initHandle) => {
    const deferred = vm.newPromise();
    if (++calls > MAX_FETCHES) {
      const message = `more than ${MAX_FETCHES} fetch calls in one run`;
      vm.newError({ name: "TypeError", message }).consume((h) => deferred.reject(h));
      return deferred.handle;
    }
    const init = JSON.parse(vm.getString(initHandle));
    const request = { url: vm.getString(urlHandle), method: init.method, headers: init.headers, body: init.body };
    pending.add(deferred);
    /** Settles the QuickJS promise, unless the run is over (its heap is gone) or has no room for it. */
    const settleWith = (/** @type {number} */ bytes, /** @type {() => void} */ settleIt) => {
      pending.delete(deferred);
      if (!closed) {
        if (!exhausted && hasRoom(bytes)) settleIt();
        else {
          // No room for the answer: the run ends out of memory, this promise never settles.
          exhausted = true;
          deferred.dispose();
        }
      }
      wake?.();
    };
    requestFetch(request).then(
      (response) => {
        const text = JSON.stringify(response);
        settleWith(Buffer.byteLength(text), () => vm.newString(text).consume((h) => deferred.resolve(h)));
      },
      (e) => {
        const message = `fetch failed: ${e instanceof Error ? e.message : String(e)}`.slice(0, 1000);
        settleWith(3 * message.length, () =>
          vm.newError({ name: "TypeError", message }).consume((h) => deferred.reject(h)),
        );
      },
    );
    return deferred.handle;
  };
  return {
    fetch,
    inFlight: () => pending.size,
    exhausted: () => exhausted,
    /** @returns {Promise<"answer" | "deadline">} */
    next: (/** @type {number} */ ms) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve("deadline"), Math.max(0, ms));
        wake = () => {
          clearTimeout(timer);
          wake = undefined;
          resolve("answer");
        };
      }),
    /** Before the heap is freed: the resolvers of unanswered calls are QuickJS handles too. */
    close: () => {
      closed = true;
      for (const deferred of pending) deferred.dispose();
      pending.clear();
    },
  };
}
