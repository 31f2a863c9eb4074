/**
 * The one script of the developer portal: in the scope picker, a group's "all" box ticks or clears the
 * group's boxes, and shows the group's state (ticked when every box is, mixed when only some are). It is
 * inline and allowed by its hash alone, so the page's policy stays as strict as the others'. Without
 * script the form still works: a ticked "all" box is sent as `scope_group` and the server adds the
 * group's scopes (./scope-groups.ts).
 */
import { createHash } from 'node:crypto';
import { PAGE_HEADERS } from '../../../plumbing/html.js';

export const SCOPE_PICKER_JS = `for (const all of document.querySelectorAll('input[name="scope_group"]')) {
  const boxes = [...document.querySelectorAll('input[name="scopes"][data-group="' + all.value + '"]')];
  const show = () => {
    const n = boxes.filter((b) => b.checked).length;
    all.checked = n === boxes.length;
    all.indeterminate = n > 0 && n < boxes.length;
  };
  all.addEventListener('change', () => {
    for (const b of boxes) b.checked = all.checked;
    all.indeterminate = false;
  });
  for (const b of boxes) b.addEventListener('change', show);
  show();
}`;

const HASH = createHash('sha256').update(SCOPE_PICKER_JS).digest('base64');

/** The portal's page headers with the picker's script allowed by its hash (and nothing else). */
export const SCOPE_PICKER_HEADERS: Record<string, string> = {
  ...PAGE_HEADERS,
  'Content-Security-Policy': `${PAGE_HEADERS['Content-Security-Policy']}; script-src 'sha256-${HASH}'`,
};
