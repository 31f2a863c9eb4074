/**
 * Server-rendered HTML: a tagged template that escapes every interpolated value unless it is already
 * Html, one page layout with a small inline style sheet, and the security headers every page carries.
 * No scripts, no external assets.
 */
import { createHash } from 'node:crypto';

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'`]/g, (c) => ESCAPES[c]);
}

function render(v: unknown): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

/** `html\`<p>${text}</p>\`` escapes `text`; nested `html` fragments and arrays of them are kept as they are. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

export const CSS = `
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#f6f7f9;--card:#fff;--muted:#5b6470;--line:#d6dae0;--accent:#0b5cad;--on-accent:#fff;--danger:#b42318}
@media (prefers-color-scheme:dark){:root{--fg:#e8eaed;--bg:#15181c;--card:#1e2227;--muted:#a3acb8;--line:#39404a;--accent:#6cb0ff;--on-accent:#0d1b2a;--danger:#ff8a80}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{padding:.75rem 1.25rem;border-bottom:1px solid var(--line);background:var(--card);display:flex;justify-content:space-between;align-items:center;gap:1rem}
header .brand{font-weight:600}
main{max-width:40rem;margin:2rem auto;padding:0 1rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1.5rem;margin-bottom:1rem}
h1{font-size:1.4rem;margin:0 0 1rem}
h2{font-size:1.1rem;margin:1.25rem 0 .5rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=email],input[type=password],input[type=text],textarea{width:100%;padding:.55rem .6rem;font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:6px}
textarea{min-height:5rem}
fieldset{border:1px solid var(--line);border-radius:6px;margin:.75rem 0;padding:.5rem .75rem}
fieldset label{display:flex;gap:.5rem;font-weight:400;margin:.2rem 0}
button{font:inherit;padding:.55rem 1.1rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--on-accent);cursor:pointer}
button.secondary{background:transparent;color:var(--accent)}
button.danger{border-color:var(--danger);background:transparent;color:var(--danger)}
button:focus-visible,a:focus-visible,input:focus-visible,textarea:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.actions{display:flex;gap:.75rem;margin-top:1.25rem;flex-wrap:wrap}
.error{color:var(--danger);border:1px solid var(--danger);border-radius:6px;padding:.5rem .75rem}
.muted{color:var(--muted)}
ul.scopes{padding-left:1.25rem}
ul.scopes li{margin:.25rem 0}
code,.secret{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;word-break:break-all}
.secret{display:block;padding:.5rem;background:var(--bg);border:1px dashed var(--line);border-radius:6px}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:.4rem;border-bottom:1px solid var(--line);vertical-align:top}
a{color:var(--accent)}
form.inline{display:inline}
`;

const CSS_HASH = createHash('sha256').update(CSS).digest('base64');

/**
 * Headers of every page: no caching (pages carry CSRF tokens and secrets), no framing (clickjacking on
 * the consent page, RFC 6819 §4.4.1.9), no referrer (authorization URLs stay private), and a content
 * security policy that allows only the page's own style sheet.
 */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': `default-src 'none'; style-src 'sha256-${CSS_HASH}'; frame-ancestors 'none'; base-uri 'none'`,
};

export interface Layout {
  title: string;
  body: Html;
  /** Shown on the right of the header, e.g. who is signed in, with a sign-out form. */
  aside?: Html;
  brand?: string;
}

export function page(l: Layout): string {
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${l.title}</title><style>${new Html(CSS)}</style></head><body><header><span class="brand">${l.brand ?? 'Fleet platform'}</span>${l.aside ?? ''}</header><main>${l.body}</main></body></html>`.value}`;
}

export const hidden = (name: string, value: string | undefined) =>
  value === undefined ? html`` : html`<input type="hidden" name="${name}" value="${value}">`;

export const errorBox = (message: string | undefined) =>
  message ? html`<p class="error" role="alert">${message}</p>` : html``;
