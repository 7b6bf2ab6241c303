/** The widget's stylesheet, scoped by its shadow root: host-page CSS cannot reach in, nor ours out. */
export const STYLES = `
:host{all:initial}
.shell{--sy-primary:#4f46e5;--sy-bg:#ffffff;--sy-text:#1f2937;--sy-bot:#f3f4f6;--sy-user:var(--sy-primary);--sy-user-text:#fff;--sy-muted:#6b7280;--sy-border:#e5e7eb;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:var(--sy-text);text-align:left;letter-spacing:normal}
[hidden]{display:none!important}
*{box-sizing:border-box}
button{font:inherit;color:inherit;cursor:pointer;border:0;background:none}
button:focus-visible,textarea:focus-visible,summary:focus-visible,a:focus-visible{outline:2px solid var(--sy-primary);outline-offset:2px}
.icon{width:20px;height:20px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.launcher{position:fixed;bottom:20px;right:20px;z-index:2147483000;width:60px;height:60px;border-radius:50%;background:var(--sy-primary);color:#fff;display:grid;place-items:center;box-shadow:0 10px 25px rgba(0,0,0,.2),0 4px 8px rgba(0,0,0,.12);transition:transform .15s}
.launcher:hover{transform:scale(1.06)}
.launcher .icon{width:28px;height:28px}
.left .launcher{right:auto;left:20px}
.panel{position:fixed;bottom:92px;right:20px;z-index:2147483000;width:390px;height:min(640px,calc(100vh - 112px));display:flex;flex-direction:column;background:var(--sy-bg);border-radius:18px;overflow:hidden;box-shadow:0 24px 60px rgba(15,23,42,.25),0 4px 12px rgba(15,23,42,.1);border:1px solid var(--sy-border)}
.left .panel{right:auto;left:20px}
.panel[hidden]{display:none}
.full{height:100%}
.full .panel{position:relative;inset:auto;width:100%;height:100%;border-radius:0;box-shadow:none;border:0}
header{display:flex;align-items:center;gap:10px;padding:14px 14px 14px 16px;background:var(--sy-primary);color:#fff}
header h2{flex:1;margin:0;font-size:16px;font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
header button{width:34px;height:34px;border-radius:10px;display:grid;place-items:center;color:#fff}
header button:hover{background:rgba(255,255,255,.16)}
.avatar{width:32px;height:32px;border-radius:50%;object-fit:cover;flex:none;background:rgba(255,255,255,.25)}
.log{flex:1;overflow-y:auto;padding:16px;display:flex;flex-direction:column;gap:12px;scroll-behavior:smooth}
.row{display:flex;gap:8px;align-items:flex-end;max-width:100%}
.row.user{justify-content:flex-end}
.row .avatar{width:28px;height:28px;background:var(--sy-bot)}
.avatar-icon{display:grid;place-items:center;color:var(--sy-primary)}header .avatar-icon{color:#fff}.avatar-icon .icon{width:60%;height:60%}
.bubble{max-width:82%;padding:10px 14px;border-radius:16px;background:var(--sy-bot);overflow-wrap:anywhere}
.user .bubble{background:var(--sy-user);color:var(--sy-user-text);border-bottom-right-radius:4px}
.bot .bubble{border-bottom-left-radius:4px}
.bubble p{margin:0 0 .5em}.bubble p:last-child{margin-bottom:0}
.bubble ul,.bubble ol{margin:.25em 0 .5em;padding-left:1.3em}
.bubble h3,.bubble h4,.bubble h5,.bubble h6{margin:.4em 0 .3em;font-size:1em}
.bubble pre{margin:.5em 0;white-space:pre-wrap;padding:10px;border-radius:8px;background:#111827;color:#f9fafb;overflow-x:auto;font-size:13px}
.bubble code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.bubble :not(pre)>code{background:rgba(0,0,0,.07);padding:1px 4px;border-radius:4px}
.bubble blockquote{margin:.4em 0;padding-left:10px;border-left:3px solid var(--sy-border);color:var(--sy-muted)}
.bubble a{color:var(--sy-primary);text-decoration:underline}
.user .bubble a{color:inherit}
.attach{font-size:13px;opacity:.85;margin-top:4px}
.streaming .bubble>:last-child::after{content:"";display:inline-block;width:7px;height:1em;margin-left:2px;vertical-align:-2px;background:currentColor;opacity:.5;animation:blink 1s steps(2) infinite}
.typing{display:inline-flex;gap:4px;padding:4px 0}
.typing i{width:7px;height:7px;border-radius:50%;background:var(--sy-muted);animation:bounce 1.2s infinite}
.typing i:nth-child(2){animation-delay:.15s}.typing i:nth-child(3){animation-delay:.3s}
@keyframes bounce{0%,60%,100%{transform:translateY(0);opacity:.5}30%{transform:translateY(-4px);opacity:1}}
@keyframes blink{to{opacity:0}}
.note{font-size:12px;color:var(--sy-muted);margin-top:4px}
.error{display:flex;align-items:center;gap:8px;flex-wrap:wrap;margin:4px 0 0 auto;max-width:85%;padding:8px 10px;border-radius:10px;background:#fef2f2;color:#991b1b;font-size:13px;border:1px solid #fecaca}
.bot+.error,.row.bot .error,.wrap.bot>.error:first-child{margin-left:36px}
.error button{display:inline-flex;align-items:center;gap:4px;padding:4px 10px;border-radius:8px;background:#fff;border:1px solid #fecaca;font-weight:600}
.error .icon{width:14px;height:14px}
details{margin-top:8px;font-size:13px;background:rgba(255,255,255,.6);border:1px solid var(--sy-border);border-radius:10px;padding:6px 10px}
summary{cursor:pointer;color:var(--sy-muted);font-weight:600;display:flex;align-items:center;gap:6px}
summary .icon{width:14px;height:14px}
.bubble details pre{white-space:pre-wrap;max-height:200px;overflow:auto;background:#f9fafb;color:var(--sy-text);border:1px solid var(--sy-border)}
.sources li{margin:4px 0}
.steps{display:flex;flex-direction:column;gap:4px;margin-bottom:6px}
.step{display:flex;align-items:center;gap:6px;font-size:13px;color:var(--sy-muted);min-width:0}
.step code{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-size:12px;min-width:0}
.spin{width:12px;height:12px;flex:none;border-radius:50%;border:2px solid var(--sy-border);border-top-color:var(--sy-primary);animation:spin .8s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
.streaming .bubble>.steps::after{display:none!important}
.call{margin-top:6px}.call .label{font-size:11px;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:var(--sy-muted);margin-top:6px}
.bubble .call pre{margin:2px 0 0;max-height:160px}
.flow-steps{margin:0 0 8px}
.flow-steps ol{list-style:none;margin:6px 0 0;padding:0;display:flex;flex-direction:column;gap:4px}
.flow-steps li{display:flex;align-items:center;gap:8px;min-width:0}
.flow-steps .name{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;color:var(--sy-text)}
.flow-steps .state{color:var(--sy-muted);font-size:12px;white-space:nowrap}
.dot{width:8px;height:8px;border-radius:50%;flex:none;background:var(--sy-primary)}
.dot.finished{background:#059669}.dot.stopped{background:#d97706}.dot.error{background:#dc2626}
.decision{margin-top:10px;padding-top:10px;border-top:1px solid var(--sy-border);display:flex;flex-direction:column;gap:6px}
.decision label{font-size:13px;font-weight:600;color:var(--sy-muted)}
.decision textarea{display:block;width:100%;flex:none;min-height:56px;font-size:14px;resize:vertical}
.decision .actions{display:flex;flex-wrap:wrap;gap:8px}
.decision .actions button{display:inline-flex;align-items:center;justify-content:center;gap:6px;min-height:40px;padding:8px 16px;border-radius:10px;font-weight:600;font-size:14px}
.decision .actions .icon{width:16px;height:16px}
.decision .approve{background:#047857;color:#fff}
.decision .approve:hover{background:#065f46}
.decision .reject{background:var(--sy-bg);color:#b91c1c;border:1px solid #fca5a5}
.decision .reject:hover{background:#fef2f2}
.decision button:disabled{opacity:.5;cursor:not-allowed}
.decided{margin:8px 0 0!important;font-size:13px;color:var(--sy-muted);font-weight:600}
.decided.proceed{color:#047857}.decided.reject{color:#b91c1c}
.streaming .bubble>.decision::after,.streaming .bubble>.decided::after,.streaming .bubble>details::after{display:none!important}
.user .feedback-sent{font-size:13px;opacity:.9;margin-top:4px;border-top:1px solid rgba(255,255,255,.35);padding-top:4px}
.rating{margin-top:8px;padding-top:4px;border-top:1px solid var(--sy-border)}
.thumbs{display:flex;align-items:center;gap:2px;min-height:32px}
.thumb{width:32px;height:32px;border-radius:8px;display:grid;place-items:center;color:var(--sy-muted)}
.thumb .icon{width:17px;height:17px}
.thumb:hover{background:var(--sy-bg);color:var(--sy-text)}
.thumb[aria-pressed=true]{color:#fff;background:var(--sy-primary)}
.thumb:disabled{cursor:default;opacity:.6}
.rating .note{margin:0 0 0 6px;color:var(--sy-text)}
.rating .said{margin:2px 0 0;overflow-wrap:anywhere}
.comment{display:flex;flex-direction:column;gap:6px;margin-top:6px}
.comment label{display:flex;flex-direction:column;gap:4px;font-size:13px;font-weight:600}
.comment textarea{flex:none;min-height:56px;font-size:14px;font-weight:400;resize:vertical}
.comment .actions{display:flex;gap:8px}
.comment button{min-height:32px;padding:4px 12px;border-radius:8px;font-size:13px;font-weight:600;border:1px solid var(--sy-border);background:var(--sy-bg)}
.comment .primary{background:var(--sy-primary);border-color:var(--sy-primary);color:#fff}
.comment button:disabled{opacity:.5;cursor:default}
.starters{display:flex;flex-wrap:wrap;gap:8px;padding:0 16px 12px}
.starters button{padding:8px 12px;border-radius:999px;border:1px solid var(--sy-border);background:var(--sy-bg);font-size:14px;text-align:left}
.starters button:hover{border-color:var(--sy-primary);color:var(--sy-primary)}
.banner{margin:16px;padding:14px;border-radius:12px;background:#fffbeb;border:1px solid #fde68a;color:#92400e;font-size:14px}
form{border-top:1px solid var(--sy-border);padding:10px 12px;background:var(--sy-bg)}
.previews{display:flex;gap:8px;flex-wrap:wrap;margin-bottom:8px}
.previews div{position:relative}
.previews img{width:56px;height:56px;object-fit:cover;border-radius:8px;border:1px solid var(--sy-border)}
.previews button{position:absolute;top:-6px;right:-6px;width:20px;height:20px;border-radius:50%;background:#111827;color:#fff;display:grid;place-items:center}
.previews .icon{width:12px;height:12px}
.bar{display:flex;align-items:flex-end;gap:6px}
textarea{flex:1;resize:none;border:1px solid var(--sy-border);border-radius:12px;padding:9px 12px;font:inherit;color:var(--sy-text);background:var(--sy-bg);max-height:120px;min-height:40px;outline:none}
textarea:focus{border-color:var(--sy-primary)}
textarea:disabled{background:var(--sy-bot);cursor:not-allowed}
.tool:disabled{opacity:.4;cursor:not-allowed}
.tool{width:40px;height:40px;border-radius:12px;display:grid;place-items:center;color:var(--sy-muted);flex:none}
.tool:hover{background:var(--sy-bot);color:var(--sy-text)}
.tool.recording{color:#dc2626;background:#fee2e2}
.send{width:40px;height:40px;border-radius:12px;display:grid;place-items:center;background:var(--sy-primary);color:#fff;flex:none}
.send:disabled{opacity:.45;cursor:default}
.hint{font-size:12px;color:#b91c1c;margin-top:6px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:480px){.bubble-mode .panel{inset:0;width:100%;height:100%;border-radius:0;border:0}.bubble-mode.open .launcher{display:none}}
/* Dark: follows prefers-color-scheme unless the theme's colorScheme says light (.light) or dark (.dark).
   Colours the chatflow's theme sets stay as set (inline on .shell). */
@media (prefers-color-scheme:dark){.shell:not(.light){--sy-bg:#0f172a;--sy-text:#e2e8f0;--sy-bot:#1e293b;--sy-muted:#94a3b8;--sy-border:#334155;color-scheme:dark}.shell:not(.light) .bubble :not(pre)>code{background:rgba(255,255,255,.1)}.shell:not(.light) .error{background:#450a0a;color:#fecaca;border-color:#7f1d1d}.shell:not(.light) .error button{background:#1e293b;border-color:#7f1d1d}.shell:not(.light) details{background:rgba(15,23,42,.6)}.shell:not(.light) .bubble details pre{background:#0f172a}.shell:not(.light) .banner{background:#451a03;border-color:#92400e;color:#fde68a}.shell:not(.light) .tool.recording{color:#fca5a5;background:#450a0a}.shell:not(.light) .hint{color:#fca5a5}.shell:not(.light) .decision .reject{color:#fca5a5;border-color:#7f1d1d}.shell:not(.light) .decision .reject:hover{background:#450a0a}.shell:not(.light) .decided.proceed{color:#6ee7b7}.shell:not(.light) .decided.reject{color:#fca5a5}}
.shell.dark{--sy-bg:#0f172a;--sy-text:#e2e8f0;--sy-bot:#1e293b;--sy-muted:#94a3b8;--sy-border:#334155;color-scheme:dark}.shell.dark .bubble :not(pre)>code{background:rgba(255,255,255,.1)}.shell.dark .error{background:#450a0a;color:#fecaca;border-color:#7f1d1d}.shell.dark .error button{background:#1e293b;border-color:#7f1d1d}.shell.dark details{background:rgba(15,23,42,.6)}.shell.dark .bubble details pre{background:#0f172a}.shell.dark .banner{background:#451a03;border-color:#92400e;color:#fde68a}.shell.dark .tool.recording{color:#fca5a5;background:#450a0a}.shell.dark .hint{color:#fca5a5}.shell.dark .decision .reject{color:#fca5a5;border-color:#7f1d1d}.shell.dark .decision .reject:hover{background:#450a0a}.shell.dark .decided.proceed{color:#6ee7b7}.shell.dark .decided.reject{color:#fca5a5}
@media (prefers-reduced-motion:reduce){*{animation:none!important;transition:none!important}}
`;
