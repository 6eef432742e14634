// `npm run bench -- typos`: typo tolerance on the shared sets (bench/typos.mjs: seeded keyboard slips,
// toolbox's candidate settings and BM25, constants chosen leave-one-set-out). About 10 minutes.
import { printTypos, typos } from './typos.mjs';

export default async function () {
  printTypos(await typos({ log: (s) => process.stderr.write(s) }));
}
