import type { VersionDiff } from "@/common/schemas/chatflow-version";

/**
 * The run settings a version diff lists, made readable for a builder: one row per field that
 * changed, "label: old → new". The override allow-list lists each param added or removed (not the
 * whole list twice); speech-to-text each key that changed, by its name in the Publish dialog. Pure:
 * no React, no fetch.
 */

export type SettingChange = VersionDiff["settingsChanged"][number];

/** One readable row of a settings change. */
export type SettingRow = { key: string; label: string; old: string; new: string };

const SPEECH_LABELS: Record<string, string> = {
  enabled: "Speech-to-text",
  baseUrl: "Speech-to-text server",
  model: "Speech-to-text model",
  credentialId: "Speech-to-text credential",
};

/** A setting's value as text: a credential by name, an unset one as "(not set)". */
export function settingValueText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "(not set)";
  if (typeof value === "string") return value;
  if (typeof value === "object" && "credential" in value)
    return `credential “${String((value as { credential: unknown }).credential)}”`;
  return JSON.stringify(value);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** The allow-list as one row per param that was added or removed. */
function allowListRows(change: SettingChange): SettingRow[] {
  const before = new Set(stringList(change.old));
  const after = new Set(stringList(change.new));
  const rows: SettingRow[] = [];
  for (const param of [...new Set([...before, ...after])].sort()) {
    if (before.has(param) === after.has(param)) continue;
    const row = { key: `overrideAllowList.${param}`, label: `Callers may override “${param}”` };
    rows.push(before.has(param) ? { ...row, old: "yes", new: "no" } : { ...row, old: "no", new: "yes" });
  }
  return rows;
}

function speechRow(change: SettingChange, field: string): SettingRow {
  const label = SPEECH_LABELS[field] ?? `Speech-to-text ${field}`;
  // Unset and false both mean off: speech-to-text is off until a save turns it on.
  if (field === "enabled") {
    const onOff = (v: unknown) => (v === true ? "on" : "off");
    return { key: change.setting, label, old: onOff(change.old), new: onOff(change.new) };
  }
  return { key: change.setting, label, old: settingValueText(change.old), new: settingValueText(change.new) };
}

/** The readable rows of a diff's settings changes, in the order the diff lists them. */
export function settingRows(changes: readonly SettingChange[]): SettingRow[] {
  return changes.flatMap((change) => {
    if (change.setting === "overrideAllowList") return allowListRows(change);
    if (change.setting.startsWith("speechToText."))
      return [speechRow(change, change.setting.slice("speechToText.".length))];
    return [
      {
        key: change.setting,
        label: change.setting,
        old: settingValueText(change.old),
        new: settingValueText(change.new),
      },
    ];
  });
}
