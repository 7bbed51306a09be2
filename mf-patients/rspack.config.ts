import { createFrontendConfig } from '../rspack.config.base';

export default createFrontendConfig({
  dir: __dirname,
  containerName: 'mf_patients',
  devPort: 3102,
  exposes: { './module': './src/module.tsx' },
});
