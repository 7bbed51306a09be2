import { createFrontendConfig } from '../rspack.config.base';

export default createFrontendConfig({
  dir: __dirname,
  containerName: 'mf_appointments',
  devPort: 3101,
  exposes: { './module': './src/module.tsx' },
});
