import { domainToASCII } from "node:url";
import { parse } from "tldts";

export type CheckedDomain = { name: string; isValid: boolean; validationError: string | null };

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Normalises what a user typed into a lowercase hostname: trims, drops a scheme, credentials, port,
 * path and a trailing dot, and converts international names to their ASCII (punycode) form.
 * Returns null for an empty entry.
 */
export function normaliseDomainName(raw: string): string | null {
  let s = raw.trim().toLowerCase();
  if (!s) return null;
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//, "").replace(/^[^/?#]*@/, "");
  s = s.split(/[/?#]/, 1)[0].replace(/:\d*$/, "").replace(/\.$/, "");
  if (!s) return null;
  return domainToASCII(s) || s;
}

/**
 * Checks a normalised name: hostname syntax (labels of a-z, 0-9 and inner hyphens, at most 63
 * characters each and 253 in all) and a real public suffix from the Public Suffix List with a
 * registrable part in front of it (so `co.uk` alone or `example.invalidtld` are not valid).
 */
export function checkDomainName(name: string): CheckedDomain {
  const invalid = (validationError: string) => ({ name, isValid: false, validationError });
  if (name.length > 253) return invalid("longer than 253 characters");
  const labels = name.split(".");
  if (labels.length < 2) return invalid("needs at least two labels, like example.com");
  const bad = labels.find((l) => !LABEL.test(l));
  if (bad !== undefined) {
    return invalid(
      bad === ""
        ? "has an empty label"
        : `label '${bad.slice(0, 63)}' may hold only a-z, 0-9 and inner hyphens (1–63 characters)`,
    );
  }
  const info = parse(name, { allowPrivateDomains: true });
  if (info.isIp) return invalid("is an IP address, not a domain");
  if (!info.isIcann && !info.isPrivate) return invalid(`'.${labels.at(-1)}' is not a known public suffix`);
  if (!info.domain) return invalid(`'${name}' is itself a public suffix`);
  return { name, isValid: true, validationError: null };
}
