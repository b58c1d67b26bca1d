/**
 * The widget's CSS, inside its shadow root: the page's rules cannot reach it, and `all: initial`
 * on the root stops the page's inherited fonts and colours (a page's `* { all: unset }` or huge
 * font sizes change nothing here). Colours come from the channel's settings as custom properties.
 * A rule for an element names a class too (`.foot textarea`): a bare `textarea` loses to `.root *`,
 * which zeroes every padding.
 */
export const STYLES = `
.root{all:initial;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);
--bg:#fff;--fg:#0f172a;--muted:#64748b;--line:#e2e8f0;--bot:#f1f5f9;--field:#fff}
.root.dark{--bg:#0f172a;--fg:#e2e8f0;--muted:#94a3b8;--line:#334155;--bot:#1e293b;--field:#1e293b}
.root *{box-sizing:border-box;font:inherit;color:inherit;margin:0;padding:0;border:0;background:none;letter-spacing:normal;text-transform:none}
.bubble{position:fixed;bottom:20px;width:56px;height:56px;border-radius:50%;background:var(--accent);color:var(--on-accent);
cursor:pointer;display:flex;align-items:center;justify-content:center;box-shadow:0 4px 14px rgba(0,0,0,.25);z-index:2147483646}
.bubble svg{width:28px;height:28px;fill:none;stroke:var(--on-accent);stroke-width:2}
.right .bubble,.right .panel{right:20px}.left .bubble,.left .panel{left:20px}
.dot{position:absolute;top:4px;right:4px;width:12px;height:12px;border-radius:50%;background:#ef4444;border:2px solid #fff}
.panel{position:fixed;bottom:88px;width:370px;height:min(600px,calc(100vh - 110px));background:var(--bg);border:1px solid var(--line);
border-radius:14px;box-shadow:0 10px 40px rgba(0,0,0,.25);display:flex;flex-direction:column;overflow:hidden;z-index:2147483647}
.panel[hidden]{display:none}
.head{background:var(--accent);color:var(--on-accent);padding:12px 14px;display:flex;align-items:center;gap:8px}
.head h2{flex:1;font-weight:600;font-size:16px}
.close{cursor:pointer;width:32px;height:32px;border-radius:6px;display:flex;align-items:center;justify-content:center}
.close svg{width:18px;height:18px;stroke:var(--on-accent);stroke-width:2}
button:focus-visible,a:focus-visible,textarea:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.head button:focus-visible{outline-color:var(--on-accent)}
.log{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:8px}
.msg{max-width:85%;padding:8px 11px;border-radius:12px;white-space:pre-wrap;overflow-wrap:anywhere}
.bot{align-self:flex-start;background:var(--bot)}
.visitor{align-self:flex-end;background:var(--accent);color:var(--on-accent)}
.pending{opacity:.6}
.who{display:flex;align-items:center;gap:6px;font-size:12px;font-weight:600;color:var(--muted);margin-bottom:2px}
.ava{width:20px;height:20px;border-radius:50%;object-fit:cover}
.greeting{color:var(--muted);text-align:center;font-size:13px;padding:4px 8px}
.att{display:block;margin-top:6px}
.att img,.att video{display:block;max-width:100%;max-height:240px;border-radius:8px}
.att audio{width:100%}
a{color:inherit;text-decoration:underline;cursor:pointer}
.rows{display:flex;flex-direction:column;gap:4px;margin-top:6px}
.row{display:flex;gap:4px;flex-wrap:wrap}
.btn{flex:1;cursor:pointer;padding:6px 10px;border:1px solid var(--accent);color:var(--fg);border-radius:8px;text-align:center;text-decoration:none;background:var(--bg)}
.btn:hover{background:var(--bot)}
.replies{padding:6px 12px 0;display:flex;flex-direction:column;gap:4px}
.typing{align-self:flex-start;color:var(--muted);background:var(--bot);border-radius:12px;padding:8px 11px}
.status{color:#dc2626;font-size:13px;padding:4px 12px}
.status:empty{display:none}
.foot{display:flex;gap:8px;padding:10px 12px;border-top:1px solid var(--line)}
.foot textarea{flex:1;resize:none;height:40px;max-height:120px;padding:9px 10px;border:1px solid var(--line);border-radius:8px;background:var(--field);color:var(--fg)}
.attach{cursor:pointer;width:36px;border-radius:8px;display:flex;align-items:center;justify-content:center;color:var(--muted)}
.attach svg{width:20px;height:20px;fill:none;stroke:currentColor;stroke-width:2}
.attach:hover{color:var(--fg)}
.chip{padding:6px 9px;border-radius:8px;background:rgba(0,0,0,.12);overflow-wrap:anywhere}
.sending{display:block;font-size:12px;margin-top:4px}
.panel.drop{outline:3px dashed var(--accent);outline-offset:-6px}
.send{cursor:pointer;background:var(--accent);color:var(--on-accent);border-radius:8px;padding:0 14px;font-weight:600}
.send:disabled{opacity:.5;cursor:default}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
@media (max-width:480px){.root .panel{inset:0;width:auto;height:auto;border-radius:0;border:0}
.root.open .bubble{display:none}}
`;
