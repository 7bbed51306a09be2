import { createFrontendConfig } from '../rspack.config.base';

export default createFrontendConfig({
  dir: __dirname,
  containerName: 'mf_scheduling',
  devPort: 3104,
  exposes: { './module': './src/module.tsx' },
});
