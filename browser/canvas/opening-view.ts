/**
 * The view a flow opens at (no saved viewport): the whole flow when it fits at a zoom where node
 * text stays readable, else that zoom showing the flow's start (top left), not the whole graph at
 * 6 px in a narrow canvas beside the side panels.
 */
import type { Viewport } from "@xyflow/react";

/** Node titles are 14 px: at this zoom they are drawn 10.5 px tall, the smallest we open at. */
export const READABLE_ZOOM = 0.75;
/** Space (screen pixels) left before a flow's start when it is wider or taller than the view. */
const START_MARGIN = 24;

type Rect = { x: number; y: number; width: number; height: number };

/**
 * The viewport showing `bounds` (flow units) in a view of `size` (pixels): fitted with `padding`
 * (a fraction of the flow's size) between `minZoom` and `maxZoom`; per axis centred when the flow
 * fits, else its start at a small margin.
 */
export function openingViewport(
  bounds: Rect,
  size: { width: number; height: number },
  { padding = 0.2, minZoom = READABLE_ZOOM, maxZoom = 1 } = {},
): Viewport {
  const fit = Math.min(
    size.width / Math.max(bounds.width * (1 + padding), 1),
    size.height / Math.max(bounds.height * (1 + padding), 1),
  );
  const zoom = Math.min(Math.max(fit, minZoom), maxZoom);
  const axis = (start: number, length: number, room: number) => {
    const drawn = length * zoom;
    return drawn <= room ? (room - drawn) / 2 - start * zoom : START_MARGIN - start * zoom;
  };
  return { x: axis(bounds.x, bounds.width, size.width), y: axis(bounds.y, bounds.height, size.height), zoom };
}
