// Test-only: a document's timestamps across its run. A service that stamps `processed_at` from the row it
// read at upload (created_at) keeps every ordering among one document's own timestamps on a first run;
// only a retry a clock tick later shows the second run ending before it started (the model's timestamps
// walk, src/model/timestamps-walk.ts).

import { eachDocument, editJson } from '@docproc-kit/test-support/mutation-proxy.js';
import type { Mutant } from './mutants.js';

// The timestamps walk is part of the fixed part, so the model's usual proof budget is plenty.
const modelBudget = () => ({ modelRuns: 150, modelTimeMs: 60_000 });

export const runTimeMutants: Mutant[] = [
  {
    name: 'processed-at-is-the-upload',
    defect: "processed_at is set to the document's created_at when its run ends (the upload's instant, not the run's end)",
    only: ['model'],
    options: modelBudget,
    fails: ['lifecycle.processed-at'],
    mentions: 'not before it started (the updated_at of the upload or retry that started it)',
    rules: ['document.processed-at'],
    mutation: () => ({
      response: (res) =>
        res.status < 300
          ? editJson(res, (b) =>
              eachDocument(b, (d) => {
                if (typeof d.processed_at === 'string') d.processed_at = d.created_at;
              }),
            )
          : res,
    }),
  },
];
