// The numpy reference of tests/fixtures/ptm.json (scripts/make-ptm-fixtures.py) and its feature set.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fixture from '../../../fixtures/ptm.json';
import { readFeaturesNpz } from '../../../../src/data/features/npz';
import type { FeatureSet } from '../../../../src/core/features/feature-set';
import type { PtmStrategy } from '../../../../src/core/ptm/defaults';

export { fixture };

export interface FixtureRun {
  key: string;
  final: number;
  aia: number;
  order?: number[][];
  matrix?: number[][];
  lambdas?: number[];
}

export interface FixtureCase {
  name: string;
  strategy: PtmStrategy;
  seed: number;
  taskSizes: number[];
  runs: FixtureRun[];
}

export const cases = fixture.cases as unknown as FixtureCase[];

export function fixtureFeatures(): FeatureSet {
  return readFeaturesNpz(new Uint8Array(readFileSync(join(__dirname, '../../../fixtures/ptm-features.npz'))), 'ptm-features.npz');
}
