/** Types of base-security-headers.mjs (plain ESM so scripts/request-guard.mjs can use it under node). */
export declare const BASE_SECURITY_HEADERS: Readonly<Record<string, string>>;
export declare const API_CONTENT_SECURITY_POLICY: string;
export declare const PERMISSIONS_POLICY: string;
export declare const API_RESPONSE_HEADERS: Readonly<Record<string, string>>;
export declare function responseKind(pathname: string): "page" | "api" | "static";
