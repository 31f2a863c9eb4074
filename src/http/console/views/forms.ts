/**
 * Pieces the console's management pages share: labelled form controls that keep what was typed and
 * point at the message that refuses them, notices, the page a refused role sees, and the confirmation
 * step before a change that is hard to take back.
 */
import { hidden, html, type Html } from '../../plumbing/html.js';
import { consolePage, type ConsoleUser, type Section } from './layout.js';
import type { GroupChoice } from '../data/vehicles-data.js';

export interface Control {
  /** The form field's name: the API's field name. */
  name: string;
  label: string;
  kind?: 'text' | 'textarea' | 'select';
  /** The choices of a select; an empty first choice stands for "none". */
  options?: readonly string[];
  maxLength?: number;
  required?: boolean;
  /** Short help under the label, tied to the control with aria-describedby. */
  hint?: string;
  inputMode?: 'numeric';
  /** Identifiers (VIN, plates): no spelling correction or automatic capitals. */
  code?: boolean;
}

/** A form's refusal: the message, and the control it names (the first word of the API's message). */
export interface FormError {
  message: string;
  id: string;
}

export const formErrorBox = (e: FormError | undefined) =>
  e ? html`<p class="error" role="alert" id="${e.id}">${e.message}</p>` : html``;

/**
 * The field a message of the API is about: its first word, `availability_details.out_of_service_reason`
 * or `group_ids[0]` naming the control `out_of_service_reason` or `group_ids`.
 */
export function fieldOfMessage(message: string): string {
  const word = message.split(/\s/, 1)[0] ?? '';
  return (word.split('.').pop() ?? '').replace(/\[\d+\]$/, '');
}

export function control(c: Control, value: string, error: FormError | undefined, prefix = ''): Html {
  const id = `${prefix}${c.name}`;
  const invalid = error !== undefined && fieldOfMessage(error.message) === c.name;
  const described = [c.hint ? `${id}-hint` : '', invalid ? error.id : ''].filter(Boolean).join(' ');
  const common = html` id="${id}" name="${c.name}"${c.required ? html` required` : ''}${
    c.maxLength ? html` maxlength="${c.maxLength}"` : ''
  }${described ? html` aria-describedby="${described}"` : ''}${invalid ? html` aria-invalid="true"` : ''}`;
  const hint = c.hint ? html`<span class="hint" id="${id}-hint">${c.hint}</span>` : '';
  let input: Html;
  if (c.kind === 'textarea') input = html`<textarea${common} rows="3">${value}</textarea>`;
  else if (c.kind === 'select')
    input = html`<select${common}><option value="">—</option>${(c.options ?? []).map(
      (o) => html`<option value="${o}"${o === value ? html` selected` : ''}>${o}</option>`,
    )}</select>`;
  else
    input = html`<input type="text"${common} value="${value}"${c.inputMode ? html` inputmode="${c.inputMode}"` : ''}${
      c.code ? html` spellcheck="false" autocapitalize="characters" autocomplete="off"` : ''
    }>`;
  return html`<div class="form-field${c.kind === 'textarea' ? ' wide' : ''}"><label for="${id}">${c.label}</label>${input}${hint}</div>`;
}

export const notice = (text: string | undefined) => (text ? html`<p role="status" class="notice">${text}</p>` : html``);

export interface PageBase {
  user: ConsoleUser;
  csrf: string;
}

/** 403: what the signed-in role may not do here, in the console's layout. */
export function deniedPage(v: PageBase & { section: Section; title: string; message: string }): string {
  const body = html`<h1>${v.title}</h1><p class="error" role="alert">${v.message}</p><p><a href="/console">Back to the map</a></p>`;
  return consolePage({ title: v.title, section: v.section, user: v.user, csrf: v.csrf, body, styles: ['manage.css'] });
}

export interface Confirmation extends PageBase {
  section: Section;
  title: string;
  /** What happens, and what it means for whoever uses the record. */
  explanation: string;
  action: string;
  button: string;
  cancelHref: string;
  /** The way back's label ("Cancel" unless the change is itself called cancelling). */
  back?: string;
  danger?: boolean;
}

/** The step before a change: what it does, a button that makes it (with the CSRF token), and a way back. */
export function confirmPage(v: Confirmation): string {
  const body = html`<section class="confirm" aria-labelledby="confirm-title"><h1 id="confirm-title">${v.title}</h1>
<p>${v.explanation}</p>
<form method="post" action="${v.action}" class="actions">${hidden('csrf_token', v.csrf)}
<button type="submit"${v.danger ? html` class="danger"` : ''}>${v.button}</button>
<a href="${v.cancelHref}" class="button secondary">${v.back ?? 'Cancel'}</a></form></section>`;
  return consolePage({ title: v.title, section: v.section, user: v.user, csrf: v.csrf, body, styles: ['manage.css'] });
}

/** An ISO instant as `2026-03-02 12:00 UTC`. */
export const utcMinute = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '');

/**
 * The group checkboxes of a user's or a vehicle's form. A limited manager must keep at least one of
 * their own (`required`); `hint`, when given, is shown under the legend and described.
 */
export function groupsFieldset(
  f: { groups: GroupChoice[]; chosen: readonly string[]; required: boolean; hint?: Html },
  error: FormError | undefined,
): Html {
  const invalid = error !== undefined && fieldOfMessage(error.message) === 'group_ids';
  const chosen = new Set(f.chosen);
  const boxes = f.groups.length
    ? f.groups.map(
        (g) =>
          html`<label class="check"><input type="checkbox" name="group_ids" value="${g.id}"${chosen.has(String(g.id)) ? html` checked` : ''}> ${g.name}</label>`,
      )
    : html`<p class="muted">${
        f.required ? 'You are in no group yet: an admin can add you to one.' : 'The company has no groups yet.'
      }</p>`;
  const legend = html`<legend>Groups${f.required ? html` <span class="muted">(at least one of yours)</span>` : ''}</legend>`;
  if (f.hint === undefined)
    return html`<fieldset class="form-field wide"${invalid ? html` aria-describedby="${error.id}"` : ''}>${legend}${boxes}</fieldset>`;
  return html`<fieldset class="form-field wide" aria-describedby="groups-hint${invalid ? html` ${error.id}` : ''}">${legend}<span class="hint" id="groups-hint">${f.hint}</span>${boxes}</fieldset>`;
}
