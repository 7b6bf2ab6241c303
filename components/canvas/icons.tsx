const paths = {
  undo: "M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11",
  redo: "m15 14 5-5-5-5M20 9H9.5a5.5 5.5 0 0 0 0 11H13",
  duplicate: "M8 8h12v12H8zM4 16V4h12",
  trash: "M3 6h18M8 6V4h8v2M6 6l1 14h10l1-14M10 11v6M14 11v6",
  layout: "M3 4h7v6H3zM14 14h7v6h-7zM6.5 10v4a2 2 0 0 0 2 2H14M14 4h7v6h-7zM10 7h4",
  fit: "M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5",
  upload: "M12 16V4m-5 5 5-5 5 5M4 20h16",
  download: "M12 4v12m-5-5 5 5 5-5M4 20h16",
  chat: "M4 5h16v11H9l-5 4z",
  back: "M15 18 9 12l6-6",
  publish: "M12 3v12m-4-8 4-4 4 4M5 13v7h14v-7",
  warning: "M12 3 2 20h20L12 3zM12 10v4M12 17h.01",
  more: "M5 12h.01M12 12h.01M19 12h.01",
  nodes: "M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM17 14v6M14 17h6",
  tests: "M9 4h6M10 4v6l-5 9a1 1 0 0 0 1 1.5h12a1 1 0 0 0 1-1.5l-5-9V4M7.5 15h9",
  history: "M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5M12 7v5l3 3",
  note: "M4 4h16v10l-6 6H4zM14 20v-6h6M8 9h8M8 13h4",
  runs: "M4 6h.01M4 12h.01M4 18h.01M8 6h12M8 12h12M8 18h12",
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, className = "h-4 w-4" }: { name: IconName; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden
    >
      <path d={paths[name]} />
    </svg>
  );
}
