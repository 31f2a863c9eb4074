/**
 * The repository's root, where the TypeScript sources are. Tests run from a compiled copy of src/ and
 * test/ (scripts/test-build.mjs) whose other top-level entries are links into the repository, so the
 * real root is where package.json really is; through tsx it is simply the folder above test/.
 */
import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = dirname(realpathSync(fileURLToPath(new URL('../package.json', import.meta.url))));

/**
 * The arguments that run a script of this tree as its own Node process, given its path without the
 * extension: the compiled .js beside this file when the tests run compiled, the .ts through tsx otherwise.
 */
export function nodeScript(pathWithoutExtension: string): string[] {
  return import.meta.url.endsWith('.ts')
    ? ['--import', 'tsx', `${pathWithoutExtension}.ts`]
    : ['--enable-source-maps', `${pathWithoutExtension}.js`];
}
