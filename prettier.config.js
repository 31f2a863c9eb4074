// Prettier (npm run format:check, npm run format). Otherwise Prettier's defaults, which already match the
// code: two-space indent, semicolons, trailing commas wherever the syntax allows, (x) => arrows.
export default {
  printWidth: 120,
  singleQuote: true,
  // Template literals are output (HTML pages, CSV, SQL): their text is what clients receive, so Prettier
  // must not re-indent the HTML or CSS inside them.
  embeddedLanguageFormatting: 'off',
};
