// Dev tool: prints the reference engine's (VRL 0.25) diagnostics for a program, rendered and structured.
// usage: node scripts/vrl-ref.cjs 'program'   (run it in its own process: the engine can abort)
const vrl = require('@bpinternal/verel');
const src = process.argv[2];
const { errors, warnings } = vrl.check(src);
for (const d of [...errors, ...warnings]) {
  console.log(vrl.formatDiagnostic(d));
  if (process.env.JSON) console.log(JSON.stringify(d));
}
