/**
 * The page's only style sheet, inline: the page opens from a CI artifact or file:// with no network.
 * Colours pass WCAG AA on their backgrounds, and every coloured mark has a word or icon beside it.
 */
export const PAGE_CSS = `
:root{--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--bg:#fff;--panel:#f6f8fa;--pass:#116329;--pass-bg:#dafbe1;--fail:#a40e26;--fail-bg:#ffebe9;--warn:#7d4e00;--warn-bg:#fff8c5;--none:#57606a;--none-bg:#eaeef2;--link:#0550ae;--focus:#0969da}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1200px;margin:0 auto;padding:16px}
h1{font-size:1.5rem;margin:.2em 0}h2{font-size:1.25rem;margin:1.6em 0 .5em;padding-bottom:.2em;border-bottom:1px solid var(--line)}h3{font-size:1.05rem;margin:1.2em 0 .4em}
a{color:var(--link)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
code,pre,kbd{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em}
pre{margin:0;padding:8px 10px;background:var(--panel);border:1px solid var(--line);border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere;max-height:28em;overflow:auto}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px;z-index:1}
.verdict{display:flex;flex-wrap:wrap;align-items:center;gap:12px;padding:14px 16px;border-radius:8px;border:2px solid}
.verdict .word{font-size:1.6rem;font-weight:700;letter-spacing:.02em}
.v-passed{color:var(--pass);background:var(--pass-bg);border-color:var(--pass)}
.v-failed{color:var(--fail);background:var(--fail-bg);border-color:var(--fail)}
.v-stopped{color:var(--warn);background:var(--warn-bg);border-color:var(--warn)}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:12px 0}
.facts dt{color:var(--muted)}.facts dd{margin:0;overflow-wrap:anywhere}
.counts{display:flex;flex-wrap:wrap;gap:8px;list-style:none;padding:0;margin:12px 0}
.counts li{padding:4px 10px;border-radius:999px;border:1px solid var(--line);font-weight:600}
.o-passed{color:var(--pass);background:var(--pass-bg)}.o-failed{color:var(--fail);background:var(--fail-bg)}
.o-warned{color:var(--warn);background:var(--warn-bg)}.o-zero{color:var(--muted);background:#fff;font-weight:400}.o-none{color:var(--none);background:var(--none-bg)}
.cmd{display:flex;gap:8px;align-items:flex-start}.cmd pre{flex:1}
button{font:inherit;font-size:.85rem;padding:4px 10px;border:1px solid var(--line);border-radius:6px;background:#fff;color:var(--fg);cursor:pointer;white-space:nowrap}
button:hover{background:var(--panel)}
nav.toc ul{display:flex;flex-wrap:wrap;gap:4px 16px;padding:0;list-style:none}
details{border:1px solid var(--line);border-radius:8px;margin:8px 0;background:#fff}
details>summary{cursor:pointer;padding:8px 12px;font-weight:600;list-style-position:inside}
details[open]>summary{border-bottom:1px solid var(--line)}
details>.body{padding:8px 12px}
.area{margin-top:1.2em}
.glance{margin:0;padding-left:1.2em}.glance li{margin:2px 0}
.failure{border-top:1px dashed var(--line);padding:10px 0}.failure:first-child{border-top:0}
.failure dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0 0 8px}.failure dt{color:var(--muted)}.failure dd{margin:0;overflow-wrap:anywhere}
.side{display:grid;grid-template-columns:1fr 1fr;gap:10px}.side h4{margin:.2em 0;font-size:.9rem}
.decided{margin:8px 0;padding:6px 12px;border-left:4px solid var(--line);background:var(--panel)}.decided ul{margin:0;padding-left:1.2em}
.matrix-wrap{overflow-x:auto}
table{border-collapse:collapse;margin:8px 0}
th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:var(--panel)}
.matrix td{text-align:center;white-space:nowrap;min-width:3.6em}
.matrix th[scope=row]{white-space:nowrap}
.c-seen{color:var(--pass);background:var(--pass-bg)}.c-never{color:var(--fail);background:var(--fail-bg);font-weight:600}
.c-undoc{color:var(--warn);background:var(--warn-bg);font-weight:600}.c-unprov{color:var(--none);background:var(--none-bg)}.c-na{color:var(--muted)}
.legend{display:flex;flex-wrap:wrap;gap:6px 14px;list-style:none;padding:0;font-size:.9rem}.legend span{padding:0 6px;border-radius:4px}
.bar{display:inline-block;width:8em;height:.8em;background:var(--none-bg);border:1px solid var(--line);border-radius:3px;vertical-align:middle;overflow:hidden}
.bar>span{display:block;height:100%;background:var(--pass)}
.muted{color:var(--muted)}.nowrap{white-space:nowrap}
th[scope=row] code{white-space:nowrap}.small{font-size:.8em}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
ul.reasons{margin:.2em 0;padding-left:1.2em}
footer{margin:2em 0 1em;color:var(--muted);font-size:.85rem}
@media (max-width:700px){main{padding:10px}.side{grid-template-columns:1fr}.facts,.failure dl{grid-template-columns:1fr}.facts dd,.failure dd{margin-bottom:4px}.cmd{flex-direction:column}}
@media print{body{font-size:11pt}main{max-width:none;padding:0}button,.skip,nav.toc{display:none}details{break-inside:avoid-page;border:0}details>summary{list-style:none}pre{max-height:none;overflow:visible}.matrix-wrap{overflow:visible}a{color:inherit;text-decoration:none}}
`;

/**
 * The page's only script: the copy buttons (the clipboard where the browser allows it from file://, else
 * the text selected for Ctrl-C), and every <details> opened for print.
 */
export const PAGE_SCRIPT = `
document.addEventListener('click',function(e){var b=e.target.closest&&e.target.closest('button[data-copy]');if(!b)return;var el=document.getElementById(b.getAttribute('data-copy'));if(!el)return;var text=el.textContent;var done=function(w){b.textContent=w;setTimeout(function(){b.textContent='Copy'},1500)};var select=function(){var r=document.createRange();r.selectNodeContents(el);var s=getSelection();s.removeAllRanges();s.addRange(r);done('Selected: press Ctrl-C')};if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(text).then(function(){done('Copied')},select)}else select()});
window.addEventListener('beforeprint',function(){document.querySelectorAll('details').forEach(function(d){d.open=true})});
`;
