import { createTestApp } from './test/testApp';
import { authHeader, login } from './test/testApp';
it('debug', async () => {
  const app = await createTestApp();
  const admin = await login(app, 'admin', 'admin123');
  const r = await app.inject({ method: 'POST', url: '/api/users', headers: authHeader(admin.token), payload: { name: 'Auth Test 1', username: 'auth.test1', email: 'a1@example.com', password: 'secret-pass-1', role: 'receptionist' } });
  console.log(r.statusCode, r.body);
  await app.close();
}, 60000);
