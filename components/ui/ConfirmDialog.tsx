"use client";

import { createContext, type ReactNode, useCallback, useContext, useId, useRef, useState } from "react";
import { Button } from "./controls";
import { ModalDialog } from "./ModalDialog";

/** What a confirmation asks: the question, what the yes button says, and whether it destroys something. */
export interface ConfirmRequest {
  title: string;
  /** A line under the title: what happens, what cannot be undone. */
  message?: string;
  /** The yes button ("Delete", "Revoke", "Restore"). */
  confirmLabel: string;
  /** A red yes button for what cannot be undone (default true: most questions are about deleting). */
  destructive?: boolean;
}

type Ask = (request: ConfirmRequest) => Promise<boolean>;

/** Outside a ConfirmProvider (a component rendered on its own, in a test): the browser's own question. */
const browserConfirm: Ask = async ({ title, message }) =>
  typeof window !== "undefined" && window.confirm(message ? `${title}\n${message}` : title);

const ConfirmContext = createContext<Ask>(browserConfirm);

/**
 * `const confirm = useConfirm(); if (await confirm({...})) …`: the studio's own confirmation dialog
 * instead of the browser's `confirm()` (which cannot be styled, names the host instead of the action,
 * and blocks the page). ConfirmProvider (app/providers.tsx) holds the dialog; without one, the browser's.
 */
export function useConfirm(): Ask {
  return useContext(ConfirmContext);
}

/** Holds the one open question; answering (either button, Escape, the backdrop) settles its promise. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<ConfirmRequest | null>(null);
  const settle = useRef<((yes: boolean) => void) | null>(null);
  const titleId = useId();

  const ask = useCallback<Ask>(
    (request) =>
      new Promise<boolean>((resolve) => {
        // A second question while one is open answers the first "no".
        settle.current?.(false);
        settle.current = resolve;
        setOpen(request);
      }),
    [],
  );
  const answer = (yes: boolean) => {
    settle.current?.(yes);
    settle.current = null;
    setOpen(null);
  };

  return (
    <ConfirmContext.Provider value={ask}>
      {children}
      {open && (
        <ModalDialog titleId={titleId} title={open.title} widthClass="max-w-md" onClose={() => answer(false)}>
          {open.message && <p className="px-5 pt-4 text-sm text-slate-700">{open.message}</p>}
          <div className="flex justify-end gap-2 px-5 py-4">
            <Button variant="secondary" onClick={() => answer(false)}>
              Cancel
            </Button>
            <Button variant={open.destructive === false ? "primary" : "danger"} onClick={() => answer(true)}>
              {open.confirmLabel}
            </Button>
          </div>
        </ModalDialog>
      )}
    </ConfirmContext.Provider>
  );
}
