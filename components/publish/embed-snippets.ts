import type { WidgetTheme } from "@/common/schemas/chatflow";

export type EmbedSnippet = { id: "script" | "init" | "full"; label: string; code: string };

/** Ways to put a chatflow's widget on a page, with its real id and this server's address. */
export function embedSnippets(apiHost: string, chatflowId: string, theme: WidgetTheme = {}): EmbedSnippet[] {
  const themeJson = Object.keys(theme).length
    ? `,\n    theme: ${JSON.stringify(theme, null, 2).replace(/\n/g, "\n    ")}`
    : "";
  return [
    {
      id: "script",
      label: "Script tag",
      code: `<script src="${apiHost}/embed.js" data-chatflow-id="${chatflowId}" defer></script>`,
    },
    {
      id: "init",
      label: "JavaScript",
      code: `<script src="${apiHost}/embed.js"></script>
<script>
  Switchyard.init({
    chatflowId: "${chatflowId}",
    apiHost: "${apiHost}"${themeJson}
  });
</script>`,
    },
    {
      id: "full",
      label: "Full page",
      code: `<div id="switchyard-chat" style="height: 600px"></div>
<script src="${apiHost}/embed.js"></script>
<script>
  Switchyard.init({
    chatflowId: "${chatflowId}",
    apiHost: "${apiHost}",
    mode: "full",
    target: "#switchyard-chat"
  });
</script>`,
    },
  ];
}
