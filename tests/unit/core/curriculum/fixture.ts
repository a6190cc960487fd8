import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface MetricCase {
  K: number;
  R: number[][];
  isolated: number[];
  order: number[];
  acc: number;
  bwt: number | null;
  fwt: number | null;
  acc0: number;
  m2i: number[];
  i2m: number[];
  acc0M2i: number;
  acc0I2m: number;
}
interface ScenarioCase {
  K: number;
  size: number;
  n: number;
  width: number;
  records: { afterTask: number; task: number; scores: number[]; labels: number[] }[];
  cil: number[][];
  til: number[][];
}
export const fx = JSON.parse(readFileSync(join(__dirname, '../../../fixtures/curriculum.json'), 'utf8')) as {
  metrics: MetricCase[];
  tie: { isolated: number[]; m2i: number[]; i2m: number[] };
  allOrders4: number[][];
  scenarios: ScenarioCase[];
};
