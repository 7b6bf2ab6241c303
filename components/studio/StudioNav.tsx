"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { signOut } from "next-auth/react";
import { roleMay, type Action } from "@/common/access/permissions";
import type { StudioUserInfo } from "./StudioUser";
import { ThemeToggle } from "@/components/ui/ThemeToggle";

/** Each page with the action it needs (common/access/permissions.ts): a role sees the pages it may use. None: every role. */
const links: { href: string; label: string; action?: Action }[] = [
  { href: "/chatflows", label: "Chatflows", action: "chatflow.list" },
  { href: "/executions", label: "Executions", action: "execution.read" },
  { href: "/credentials", label: "Credentials", action: "credential.list" },
  { href: "/api-keys", label: "API keys", action: "apikey.list" },
  { href: "/domains/manage", label: "Domains", action: "domain.use" },
  { href: "/users", label: "Users", action: "user.manage" },
  { href: "/queue", label: "Queue", action: "queue.view" },
  { href: "/api-docs", label: "API" },
];

export function StudioNav({ user }: { user: Pick<StudioUserInfo, "name" | "email" | "role"> }) {
  const path = usePathname();
  const all = links.filter((l) => !l.action || roleMay(user.role, l.action));
  const header = useRef<HTMLElement>(null);
  // Full-screen pages (the editor) start below the bar: its height, which grows when the links wrap
  // on a phone, as --studio-header on <html>.
  useEffect(() => {
    const el = header.current;
    if (!el) return;
    const root = document.documentElement;
    const update = () => root.style.setProperty("--studio-header", `${el.offsetHeight}px`);
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.removeProperty("--studio-header");
    };
  }, []);
  return (
    <header ref={header} className="border-b border-slate-200 bg-white">
      {/* On a phone the links drop below the name and wrap into rows: every page in sight, none hidden in a sideways scroll. */}
      <nav
        className="mx-auto flex min-h-14 max-w-6xl flex-wrap items-center gap-x-6 gap-y-1 px-4 py-2 sm:px-6"
        aria-label="Studio"
      >
        <Link href="/chatflows" className="flex items-center gap-2 font-semibold">
          <span className="grid h-7 w-7 place-items-center rounded-md bg-brand-600 text-sm font-bold text-white">
            S
          </span>
          Switchyard
        </Link>
        <ul className="order-last -mx-1 flex w-full flex-wrap gap-1 text-sm sm:order-none sm:mx-0 sm:w-auto">
          {all.map((l) => (
            <li key={l.href}>
              <Link
                href={l.href}
                aria-current={path.startsWith(l.href) ? "page" : undefined}
                className={`whitespace-nowrap rounded-md px-3 py-1.5 ${path.startsWith(l.href) ? "bg-brand-50 font-medium text-brand-700" : "text-slate-600 hover:bg-slate-100"}`}
              >
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
        <div className="ml-auto flex items-center gap-3 text-sm">
          <ThemeToggle />
          <span className="whitespace-nowrap text-slate-500 max-sm:hidden" title={user.email}>
            {user.name} · {user.role}
          </span>
          <button
            type="button"
            className="whitespace-nowrap rounded-md px-2 py-1 text-slate-600 hover:bg-slate-100"
            onClick={() => signOut({ callbackUrl: "/signin" })}
          >
            Sign out
          </button>
        </div>
      </nav>
    </header>
  );
}
