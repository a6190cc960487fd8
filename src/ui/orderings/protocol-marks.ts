/** Protocol marks, the same in every chart and table (docs/design.md, visual language). */
export interface ProtocolMark {
  fill: string;
  stroke: string;
  name: string;
}

const MARKS: Record<string, ProtocolMark> = {
  rs: { fill: '#1f77b4', stroke: '#1f77b4', name: 'Random seeds (RS)' },
  edge: { fill: '#e69f00', stroke: '#e69f00', name: 'EDGE' },
  'edge+': { fill: '#b35806', stroke: '#b35806', name: 'EDGE+ (local search, ours)' },
  exact: { fill: '#ffffff', stroke: '#000000', name: 'Exact extreme of S' },
  as: { fill: '#7b3294', stroke: '#7b3294', name: 'AS baseline' },
  ms: { fill: '#c2a5cf', stroke: '#7b3294', name: 'MS baseline' },
};

export function protocolMark(protocol: string): ProtocolMark {
  return MARKS[protocol] ?? { fill: '#999999', stroke: '#999999', name: protocol };
}
