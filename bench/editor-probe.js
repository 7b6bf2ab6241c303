// In-page recorders of bench/editor.ts, installed before the app's own scripts on every navigation
// (plain browser JavaScript: tsx would add helpers to a serialised TypeScript function). It sets
// window.__bench: long tasks, the first click's handling, per-key typing latency and a frame counter.
(() => {
  const b = {
    /** [startTime, duration] of every long task (> 50 ms on the main thread). */
    longtasks: [],
    /** Event time of the first pointerdown; when a node was first selected after it; the frame after that. */
    firstDown: undefined,
    firstSelected: undefined,
    firstPainted: undefined,
    /** Per key: ms from keydown's event time to the frame after its input event was handled. */
    keys: [],
    longBetween(from, to) {
      const xs = b.longtasks.filter(([s]) => s >= from && s <= to).map(([, d]) => d);
      return { count: xs.length, max: xs.length ? Math.max(...xs) : 0 };
    },
    /**
     * Resolves once no long task has started for `quietMs`: with the end of the last long task (the
     * main thread's last busy moment), or `since` when there was none after it.
     */
    async quiet(since, quietMs) {
      for (;;) {
        const last = b.longtasks
          .filter(([s, d]) => s + d >= since)
          .reduce((end, [s, d]) => Math.max(end, s + d), since);
        if (performance.now() - last >= quietMs) return last;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    startFrames: () => undefined,
    stopFrames: () => undefined,
    autoLayout: async () => 0,
  };
  window.__bench = b;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) b.longtasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
  const afterNextFrame = (fn) => requestAnimationFrame(() => setTimeout(fn, 0));

  // The first pointerdown (its event time: when the browser got it) arms a watch for a selected node.
  addEventListener(
    "pointerdown",
    (e) => {
      if (b.firstDown !== undefined) return;
      b.firstDown = e.timeStamp;
      const seen = () => {
        if (b.firstSelected !== undefined || !document.querySelector(".react-flow__node.selected")) return false;
        b.firstSelected = performance.now();
        afterNextFrame(() => {
          b.firstPainted = performance.now();
        });
        return true;
      };
      const mo = new MutationObserver(() => seen() && mo.disconnect());
      mo.observe(document.body, { subtree: true, attributes: true, attributeFilter: ["class"] });
    },
    { capture: true },
  );

  // Typing: keydown's event time → the frame after the input event was handled.
  let keyAt;
  addEventListener(
    "keydown",
    (e) => {
      keyAt = e.timeStamp;
    },
    { capture: true },
  );
  addEventListener(
    "input",
    () => {
      const at = keyAt;
      keyAt = undefined;
      if (at !== undefined) afterNextFrame(() => b.keys.push(performance.now() - at));
    },
    { capture: true },
  );

  // Frames while an interaction runs: requestAnimationFrame times, and in how many the view or a dragged node moved.
  let frames = [];
  let moved = 0;
  let running = false;
  // Which counting is current: a loop of an earlier one whose next frame comes only after the next
  // startFrames (stop and start within one frame) must not count along with it.
  let generation = 0;
  const look = () =>
    (document.querySelector(".react-flow__viewport")?.style.transform ?? "") +
    (document.querySelector(".react-flow__node.dragging")?.style.transform ?? "");
  b.startFrames = () => {
    frames = [];
    moved = 0;
    running = true;
    const mine = ++generation;
    let last = look();
    const tick = (t) => {
      if (!running || mine !== generation) return;
      frames.push(t);
      const now = look();
      if (now !== last) moved++;
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  };
  // fps: frames in which the view (or the dragged node) moved, per second: what a person sees change.
  b.stopFrames = () => {
    running = false;
    const gaps = frames.slice(1).map((t, i) => t - frames[i]);
    const span = frames.length > 1 ? frames[frames.length - 1] - frames[0] : 0;
    return {
      fps: span ? (moved * 1000) / span : 0,
      rafFps: span ? ((frames.length - 1) * 1000) / span : 0,
      worstGap: gaps.length ? Math.max(...gaps) : 0,
      frames: frames.length,
      moved,
      from: frames[0] ?? 0,
      to: frames[frames.length - 1] ?? 0,
    };
  };

  /** Clicks Auto-layout; resolves with the ms until the first nodes moved. */
  b.autoLayout = async () => {
    const first = () =>
      [...document.querySelectorAll(".react-flow__node")]
        .slice(0, 5)
        .map((e) => e.dataset.id + e.style.transform)
        .join();
    const before = first();
    const t = performance.now();
    document.querySelector('[aria-label="Auto-layout"]').click();
    while (first() === before && performance.now() - t < 30_000) await new Promise((r) => requestAnimationFrame(r));
    return performance.now() - t;
  };
})();
