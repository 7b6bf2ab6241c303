"use client";

import { type KeyboardEvent, useEffect, useRef } from "react";

export interface CanvasMenuItem {
  label: string;
  /** A key hint shown on the right (e.g. "Ctrl+C"). */
  hint?: string;
  danger?: boolean;
  onSelect: () => void;
}

export interface CanvasMenuState {
  /** Where it opens, in pixels from the canvas's top left. */
  x: number;
  y: number;
  label: string;
  items: CanvasMenuItem[];
}

/**
 * The canvas's right-click menu (also Shift+F10 or the menu key): a list of commands at the pointer.
 * Arrow keys, Home and End move through it, Enter or Space runs one; Escape, a click elsewhere or a
 * scroll close it, and the focus goes back where it was.
 */
export function CanvasMenu({ menu, onClose }: { menu: CanvasMenuState; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  useEffect(() => {
    returnTo.current = document.activeElement as HTMLElement | null;
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus({ preventScroll: true });
    const outside = (e: Event) => {
      if (!ref.current?.contains(e.target as Node)) onClose();
    };
    document.addEventListener("pointerdown", outside, true);
    document.addEventListener("wheel", outside, true);
    window.addEventListener("blur", onClose);
    return () => {
      document.removeEventListener("pointerdown", outside, true);
      document.removeEventListener("wheel", outside, true);
      window.removeEventListener("blur", onClose);
      // Back to the node (or whatever had the focus) unless the focus moved on by itself.
      const back = returnTo.current;
      if (back?.isConnected && (!document.activeElement || document.activeElement === document.body))
        back.focus({ preventScroll: true });
    };
  }, [onClose]);

  const onKeyDown = (e: KeyboardEvent) => {
    const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const go = (i: number) => items[(i + items.length) % items.length]?.focus();
    e.stopPropagation();
    if (e.key === "Escape") {
      e.preventDefault();
      onClose();
    } else if (e.key === "ArrowDown") {
      e.preventDefault();
      go(at + 1);
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      go(at - 1);
    } else if (e.key === "Home") {
      e.preventDefault();
      go(0);
    } else if (e.key === "End") {
      e.preventDefault();
      go(items.length - 1);
    } else if (e.key === "Tab") {
      e.preventDefault();
      onClose();
    }
  };

  return (
    <div
      ref={ref}
      role="menu"
      aria-label={menu.label}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      onContextMenu={(e) => e.preventDefault()}
      className="absolute z-30 min-w-44 rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg"
      style={{ left: menu.x, top: menu.y }}
    >
      {menu.items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          onClick={() => {
            onClose();
            item.onSelect();
          }}
          className={`flex w-full items-center justify-between gap-4 px-3 py-1.5 text-left focus:bg-slate-100 focus:outline-none hover:bg-slate-100 ${item.danger ? "text-red-700" : "text-slate-800"}`}
        >
          <span>{item.label}</span>
          {item.hint && <span className="text-xs text-slate-500">{item.hint}</span>}
        </button>
      ))}
    </div>
  );
}
