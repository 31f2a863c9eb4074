// The copy buttons of the console (the new API key): shown only where script runs, they copy the
// field they name and say so in their status line. Without the Clipboard API (a page served over
// plain http from another host than localhost) the field is selected for Ctrl+C / ⌘C instead.
for (const button of document.querySelectorAll('button[data-copy]')) {
  const field = document.getElementById(button.dataset.copy);
  const status = document.getElementById(button.dataset.copyStatus);
  if (!field) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    let copied = false;
    try {
      await navigator.clipboard.writeText(field.value);
      copied = true;
    } catch {
      field.select();
      copied = document.execCommand && document.execCommand('copy');
    }
    if (!copied) field.select();
    if (status) status.textContent = copied ? 'Copied.' : 'Selected: press Ctrl+C (⌘C on a Mac) to copy.';
  });
}
