/**
 * Every plain JavaScript file of the repository (the dashboard's scripts, the reproduction and
 * learning scripts, bin) is type-checked by `npm run typecheck`: 4.5k lines of them once lay
 * outside it (issue 60). The files each project of the script checks are tsc's own list
 * (--listFilesOnly), so a new script outside every project fails here.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const script = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts.typecheck;

/** The tracked .js, .mjs and .cjs files (build output and dependencies are not tracked). */
const plainJs = execFileSync('git', ['ls-files', '*.js', '*.mjs', '*.cjs'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);

/**
 * The JavaScript files a project checks: those its include and files name, as tsc reads its config
 * (comments, extends and all), where it has checkJs (without it, a .js file is read but not checked).
 */
function projectFiles(project: string): string[] {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d: ts.Diagnostic) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } };
  const parsed = ts.getParsedCommandLineOfConfigFile(`${ROOT}${project}`, {}, host);
  if (!parsed || parsed.errors.length) throw new Error(`${project}: ${parsed?.errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, '\n')).join('; ')}`);
  return parsed.options.checkJs ? parsed.fileNames.map((file) => file.replace(ROOT, '')) : [];
}

test('npm run typecheck checks every tracked JavaScript file', () => {
  expect(plainJs.length).toBeGreaterThan(0);
  // The projects the script names with -p (tsc -b's own are TypeScript only).
  const projects = [...script.matchAll(/tsc -p (\S+)/g)].map((m) => m[1]);
  const checked = new Set(projects.flatMap(projectFiles));
  expect(plainJs.filter((file) => !checked.has(file))).toEqual([]);
});
