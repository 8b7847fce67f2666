import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { MINIMUM_NODE_VERSION, unsupportedNodeReason } from './node-version';

describe('the Node.js versions the service runs on', () => {
  it.each(['22.14.0', '22.23.3', '24.0.0', '24.21.0', '26.10.0', '27.0.0'])(
    'should run on %s',
    (version) => {
      expect(unsupportedNodeReason(version)).toBeNull();
    },
  );

  it.each(['22.13.1', '22.9.0', '21.7.3', '20.20.2', '18.20.8'])(
    'should refuse %s, naming it and the versions that work',
    (version) => {
      expect(unsupportedNodeReason(version)).toBe(
        `Node.js ${version} cannot run this service: it needs Node.js 22.14.0 or later on the ` +
          '22 line, 24 or 26 (see "Quick start" in the README for getting one).',
      );
    },
  );

  it("should be the minimum of package.json's engines", () => {
    const { engines } = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8'));
    expect(engines.node).toBe(`>=${MINIMUM_NODE_VERSION}`);
  });
});
