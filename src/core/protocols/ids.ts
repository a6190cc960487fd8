/**
 * The protocols the Orderings lab runs, by id (docs/science.md §1), in the order every list of them keeps. On their
 * own, so that the lab's settings table (src/core/labs/orderings/settings.ts) can list them while the protocols'
 * options type (./types.ts) takes its fields from that table.
 */
export type ProtocolId = 'rs' | 'edge' | 'edge+' | 'exact' | 'as' | 'ms';
export const PROTOCOL_IDS: readonly ProtocolId[] = ['rs', 'edge', 'edge+', 'exact', 'as', 'ms'];
