/**
 * The paper's corpus (DESIGN.md §11): problems per domain, the mean optimal plan length and the
 * rows it reports. Shared by bench/corpus and bench/compare (`--job corpus`), so both build the
 * same corpus.
 */
export const PAPER: Record<string, { problems: number; mopl: number; rows: number }> = {
  "blocksworld-3ops": { problems: 952, mopl: 5.29, rows: 51_990 },
  blocksworld: { problems: 1796, mopl: 9.58, rows: 125_402 },
  ferry: { problems: 858, mopl: 9.12, rows: 65_269 },
  hanoi: { problems: 1660, mopl: 3.84, rows: 65_745 },
  logistics: { problems: 669, mopl: 8.7, rows: 70_238 },
  elevator: { problems: 2089, mopl: 10.53, rows: 207_549 },
  npuzzle: { problems: 598, mopl: 9.05, rows: 42_027 },
  rooms: { problems: 916, mopl: 6.59, rows: 37_947 },
  sokoban: { problems: 437, mopl: 14.25, rows: 58_475 },
  spanner: { problems: 3563, mopl: 7.87, rows: 198_942 },
  visitgrid: { problems: 1176, mopl: 5.86, rows: 61_390 },
};
