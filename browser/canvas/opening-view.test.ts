import { describe, expect, it } from "vitest";
import { openingViewport, READABLE_ZOOM } from "./opening-view";

describe("openingViewport", () => {
  it("a small flow is centred at zoom 1 at most", () => {
    const v = openingViewport({ x: 100, y: 50, width: 300, height: 200 }, { width: 1000, height: 800 });
    expect(v.zoom).toBe(1);
    // Centred: the flow's middle at the view's middle.
    expect(v.x + (100 + 150) * v.zoom).toBeCloseTo(500);
    expect(v.y + (50 + 100) * v.zoom).toBeCloseTo(400);
  });

  it("a flow that fits at a readable zoom is shown whole", () => {
    const v = openingViewport({ x: 0, y: 0, width: 1000, height: 500 }, { width: 1000, height: 800 });
    expect(v.zoom).toBeCloseTo(1000 / 1200);
    expect(v.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
  });

  it("a wide flow in a narrow canvas opens readable, at its start", () => {
    // The canvas beside the palette and the Versions panel: ~480 px.
    const bounds = { x: -200, y: 40, width: 2400, height: 700 };
    const v = openingViewport(bounds, { width: 480, height: 700 });
    expect(v.zoom).toBe(READABLE_ZOOM);
    // The flow's left edge is just inside the view's left edge …
    const left = v.x + bounds.x * v.zoom;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(50);
    // … while its height (525 px at this zoom) fits, so it stays centred up and down.
    const top = v.y + bounds.y * v.zoom;
    expect(top).toBeCloseTo((700 - 700 * v.zoom) / 2);
  });

  it("a flow taller than the view shows its top", () => {
    const bounds = { x: 0, y: 300, width: 300, height: 3000 };
    const v = openingViewport(bounds, { width: 1000, height: 600 });
    expect(v.zoom).toBe(READABLE_ZOOM);
    const top = v.y + bounds.y * v.zoom;
    expect(top).toBeGreaterThan(0);
    expect(top).toBeLessThan(50);
  });

  it("an empty bounds box opens at the maximum zoom without dividing by zero", () => {
    const v = openingViewport({ x: 0, y: 0, width: 0, height: 0 }, { width: 800, height: 600 });
    expect(v).toEqual({ x: 400, y: 300, zoom: 1 });
  });
});
