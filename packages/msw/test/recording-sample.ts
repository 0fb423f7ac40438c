import type { SeedFileBody } from '../src/seed-option.js';

/**
 * A recording (browser-safe, for the seed scenarios and the service worker's page) as `docproc proxy --record` writes one past a seed request's bounds: several bodies of one
 * tenant, names and texts in several scripts, a failure that was retried once, an old document.
 */
export const RECORDING: SeedFileBody[] = [
  {
    documents: [
      {
        filename: 'Счёт-фактура №17.pdf',
        status: 'completed',
        content: 'Поставщик ООО Ромашка\nИтого 4 500,00',
        age_s: 86_400,
        attempts: 1,
      },
      { filename: '請求書.pdf', status: 'completed', content: '丸の内商事 請求書 第二〇四一号', age_s: 3_600, attempts: 2 },
    ],
  },
  {
    documents: [
      {
        filename: 'scan 2024-05-02.png',
        status: 'failed',
        error: { code: 'unreadable_document', message: 'The PNG image is truncated.' },
        age_s: 60,
        attempts: 2,
      },
    ],
  },
];
