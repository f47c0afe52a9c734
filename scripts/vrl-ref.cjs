// Dev tool: asks the reference engine (@bpinternal/verel, VRL 0.25) about a program. Run it in its own
// process: the engine can abort on some inputs.
//   node scripts/vrl-ref.cjs 'program'                 diagnostics (JSON=1 adds the structured form)
//   node scripts/vrl-ref.cjs --run 'program' '{"a":1}'  runs the program on an event, prints result and event
const vrl = require('@bpinternal/verel');
const [first, ...rest] = process.argv.slice(2);
if (first === '--run') {
  const [src, event = '{}'] = rest;
  try {
    console.log(JSON.stringify(vrl.execute(src, JSON.parse(event))));
  } catch (e) {
    console.log('runtime error:', e?.message ? e.message : String(e));
  }
} else {
  const { errors, warnings } = vrl.check(first);
  for (const d of [...errors, ...warnings]) {
    console.log(vrl.formatDiagnostic(d));
    if (process.env.JSON) console.log(JSON.stringify(d));
  }
}
