// Dev tool: compares our diagnostics with the reference engine's (VRL 0.25), both rendered by our renderer.
//   node scripts/diag-diff.mjs programs.txt   (one program per line, `\n` for newlines)   [--table]
// Needs a build (dist/). The reference runs in a child process per program (it can abort).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { renderDiagnostics } from '../dist/compiler/diagnostics/render.js';
import { compile } from '../dist/runtime/index.js';

const NOTE = {
  SeeErrorDocs: () => ({ kind: 'see-error-docs' }),
  SeeFunctionCharacteristicsDocs: () => ({ kind: 'see-function-characteristics-docs' }),
  CoerceValue: () => ({ kind: 'coerce-value' }),
  Basic: (m) => ({ kind: 'basic', text: m }),
  Hint: (m) => ({ kind: 'hint', text: m }),
  Example: (m) => ({ kind: 'example', text: m }),
  SeeCodeDocs: (m) => ({ kind: 'see-code-docs', code: Number(m) }),
  SeeDocs: (m) => ({ kind: 'see-docs', about: m.slice(0, m.lastIndexOf(' ')), url: m.slice(m.lastIndexOf(' ') + 1) }),
};

function reference(source) {
  const out = execFileSync('node', ['scripts/vrl-ref.cjs', source], {
    env: { ...process.env, JSON: '1' },
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => {
      const d = JSON.parse(l);
      return {
        severity: d.severity,
        code: d.code,
        message: d.message,
        labels: d.labels.map((x) => ({ message: x.message, primary: x.primary, span: x.span })),
        notes: d.notes.map((n) => NOTE[n.note_type](n.message)),
      };
    });
}

async function ours(source) {
  try {
    const p = await compile(source);
    return p.warnings.length ? renderDiagnostics(source, p.warnings) : '';
  } catch (e) {
    return e.message;
  }
}

const table = process.argv.includes('--table');
const lines = fs
  .readFileSync(process.argv[2], 'utf8')
  .split('\n')
  .filter((l) => l.trim());
let same = 0;
for (const line of lines) {
  const source = line.replace(/\\n/g, '\n');
  const want = renderDiagnostics(source, reference(source));
  const got = await ours(source);
  if (want === got) same++;
  if (table) console.log(JSON.stringify([source, got]) + ',');
  else if (want !== got) console.log(`--- ${JSON.stringify(source)}\nreference:\n${want}\nours:\n${got}\n`);
}
if (!table) console.log(`${same}/${lines.length} identical`);
