import { createFrontendConfig } from '../rspack.config.base';

export default createFrontendConfig({ dir: __dirname, containerName: 'shell', devPort: 3100, isHost: true });
