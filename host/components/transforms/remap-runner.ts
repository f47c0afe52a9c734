// The worker side of \`remap\` (remap.ts is the definition, with the option schemas a worker never needs):
// an instance of the program, run on each batch in chain mode or on a source's frames, and the annotation
// of events rerouted to \`dropped\`.

import { BatchReader, BatchWriter, CodecModule, withField, type DecodeOptions } from '../../../runtime/engine.js';
import { ChainFlag, type ChainFailure } from '../../../abi/batch.js';
import { decode, encode } from '../../../abi/codec.js';
import type { TransformResult, TransformRunner } from '../component.js';
import { failureErrors, framedCounts, instantiateProgram, RemapLogs } from '../support/remap-program.js';

/** The output failed events are rerouted to (\`reroute_dropped\`). */
export const DROPPED = 'dropped';

export interface RemapPlan {
  module: WebAssembly.Module;
  /** The zone the program's time functions use: the `timezone` option, else the global one. */
  timezone: string;
  /** `ChainFlag`s: which failed events are forwarded unchanged. */
  keep: number;
  dropOnError: boolean;
  dropOnAbort: boolean;
  rerouteDropped: boolean;
  componentId: string;
  /** `max_memory_bytes`: the most the instance's memory may hold. */
  memoryLimit: number;
  /** `--max-decompressed-size-bytes`: the most the program's decompression functions may produce. */
  maxDecompressedSize: number;
  /** Where a rerouted event's annotation goes (`log_schema.metadata_key`); none when it is empty. */
  annotation: { metadata: boolean; fields: string[]; tagPrefix: string } | undefined;
}

/** The runner of a remap transform in the thread that runs it. */
export async function createRemap(plan: RemapPlan): Promise<TransformRunner> {
  const logs = new RemapLogs();
  const instance = await instantiateProgram(plan.module, logs, plan);
  const annotate = annotator(plan);
  // Decodes frames for a module without `run_framed` (one precompiled by `svc vrl --emit-wasm`).
  let codec: CodecModule | undefined;
  return {
    process(batch, encode) {
      let decoded: TransformResult['decoded'];
      let encodeFailures: TransformResult['encodeFailures'];
      let run: { output: Uint8Array; count: number; failures: ChainFailure[] };
      let input = batch;
      if (batch.frames && instance.framed) {
        const framed = instance.runFramed(
          batch.bytes,
          batch.frames,
          encode,
          plan.keep |
            (plan.rerouteDropped ? ChainFlag.FAILED_RECORDS : 0) |
            lateStamp(instance.info.eventReplacedAfterReading, batch.frames),
        );
        run = framed;
        ({ decoded, encodeFailures } = framedCounts(framed));
      } else {
        if (batch.frames) {
          const result = (codec ??= new CodecModule({ timezone: plan.timezone })).decode(batch.bytes, batch.frames);
          decoded = { count: result.count, errors: result.errors.map((error) => error.message) };
          input = { bytes: result.batch, count: result.count };
        }
        run = instance.runChain(input.bytes, plan.keep);
        encode = undefined;
      }
      const outputs: TransformResult['outputs'] = [
        { output: undefined, batch: { bytes: run.output, count: run.count, encoded: encode !== undefined } },
      ];
      const failures = run.failures;
      const errors = failures.filter((failure) => failure.outcome === 'error');
      const dropped = failures.filter((failure) => (failure.outcome === 'error' ? plan.dropOnError : plan.dropOnAbort));
      const discarded: NonNullable<TransformResult['discarded']> = [];
      if (plan.rerouteDropped) {
        outputs.push({
          output: DROPPED,
          batch: annotate(dropped, input.frames ? 0 : new BatchReader(input.bytes).flags),
        });
      } else {
        const droppedErrors = dropped.filter((failure) => failure.outcome === 'error').length;
        const droppedAborts = dropped.length - droppedErrors;
        if (droppedErrors > 0)
          discarded.push({ count: droppedErrors, intentional: false, reason: 'Mapping failed with event.' });
        if (droppedAborts > 0)
          discarded.push({ count: droppedAborts, intentional: true, reason: 'Event mapping aborted.' });
      }
      return {
        outputs,
        discarded,
        errors: failureErrors(errors, 'conversion_failed', (message) => `Mapping failed with event: ${message}`),
        logs: logs.take(),
        decoded,
        encodeFailures,
      };
    },
  };
}

/**
 * `ChainFlag.LATE_STAMP` when the program replaces the event before it reads any field the frames' stamp adds
 * (legacy namespace; in Vector's the stamp is metadata, which the replacement keeps).
 */
function lateStamp(readBeforeReplacing: readonly string[] | undefined, frames: DecodeOptions): number {
  if (readBeforeReplacing === undefined || frames.logNamespace === 'vector') return 0;
  // A few fields, decoded once per batch (each batch's bytes are a copy made for this thread).
  const stamp = frames.stampBytes ? (decode(frames.stampBytes) as object) : (frames.stamp ?? {});
  return Object.keys(stamp).some((field) => readBeforeReplacing.includes(field)) ? 0 : ChainFlag.LATE_STAMP;
}

/**
 * Vector's annotation of a dropped event: logs and traces get `{dropped: {reason, message, component_id,
 * component_type, component_kind}}` at `log_schema.metadata_key` (an event field, or metadata with `%`;
 * nothing when it is empty); metrics get tags `<metadata_key>.dropped.*` (without the message). The
 * original records are edited as bytes, never decoded.
 */
function annotator(plan: RemapPlan): (failures: ChainFailure[], flags: number) => { bytes: Uint8Array; count: number } {
  const key = plan.annotation;
  const common = { component_id: plan.componentId, component_type: 'remap', component_kind: 'transform' };
  return (failures, flags) => {
    const originals = new BatchWriter(flags);
    for (const failure of failures) originals.appendRaw(failure.record!);
    if (key === undefined) return { bytes: originals.finish(), count: originals.count };
    const annotated = new BatchWriter(flags);
    for (const { index, kind, metadata, event } of new BatchReader(originals.finish())) {
      const { outcome, message } = failures[index]!;
      const reason = outcome === 'error' ? 'error' : 'abort';
      if (kind === 'metric') {
        let tagged = event;
        for (const [name, value] of Object.entries({ reason, ...common }))
          tagged = withField(tagged, ['tags', `${key.tagPrefix}.${name}`], encode(value));
        annotated.appendEncoded(kind, metadata, tagged);
      } else {
        const dropped = encode({ dropped: { reason, message, ...common } });
        if (key.metadata) annotated.appendEncoded(kind, withField(metadata, key.fields, dropped), event);
        else annotated.appendEncoded(kind, metadata, withField(event, key.fields, dropped));
      }
    }
    return { bytes: annotated.finish(), count: annotated.count };
  };
}
