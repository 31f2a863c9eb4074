/** The one password policy (src/auth/password-policy.ts) at its boundaries. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { passwordProblem } from '../../../src/auth/password-policy.js';

describe('password policy', () => {
  test('length: 15 to 200 characters, counted as Unicode code points', () => {
    assert.equal(passwordProblem('a'.repeat(13) + 'bc'.slice(0, 1)), 'must be at least 15 characters long (it has 14)');
    assert.equal(passwordProblem('rolling-hills-9'), null);
    // Four emoji are 8 UTF-16 units but 4 characters: 11 + 4 = 15.
    assert.equal(passwordProblem('truck route🚚🚛🚜🛻'), null);
    assert.equal(passwordProblem('truck rout🚚🚛🚜🛻'), 'must be at least 15 characters long (it has 14)');
    const long = 'pale blue trucks '.repeat(12).slice(0, 200);
    assert.equal(passwordProblem(long), null);
    assert.equal(passwordProblem(long + 'x'), 'must be at most 200 characters long');
  });

  test('spaces and any character are allowed; no composition rules', () => {
    assert.equal(passwordProblem('correct horse battery staple'), null);
    assert.equal(passwordProblem('всё что угодно, правда'), null);
  });

  test('common passwords are refused without regard to case, and so are repetitions', () => {
    const tooCommon = 'is too common: it is on a list of often-used passwords; choose another';
    assert.equal(passwordProblem('passwordpassword'), tooCommon);
    assert.equal(passwordProblem('PasswordPassword'), tooCommon);
    assert.equal(passwordProblem('1qaz2wsx3edc4rfv'), tooCommon);
    assert.equal(passwordProblem('aaaaaaaaaaaaaaa'), tooCommon);
    assert.equal(passwordProblem('abcdabcdabcdabcd'), tooCommon);
    assert.equal(passwordProblem('dragondragondragon'), tooCommon, 'a listed password repeated');
    assert.equal(passwordProblem('abcdeabcdeabcde'), null, 'a run of 5 that is not a listed password is allowed');
  });

  test("the account's own email address, its name part and its user name may not be in it", () => {
    const own = "must not contain the account's email address or user name";
    assert.equal(passwordProblem('jane.doe@acme.test!!', { email: 'jane.doe@acme.test' }), own);
    assert.equal(passwordProblem('my name is JANE.DOE ok', { email: 'jane.doe@acme.test' }), own);
    assert.equal(passwordProblem('bwalker-drives-far', { username: 'bwalker' }), own);
    assert.equal(
      passwordProblem('administrator of trucks', { email: 'admin@acme.test' }),
      null,
      'names under 6 characters are not checked',
    );
  });
});
