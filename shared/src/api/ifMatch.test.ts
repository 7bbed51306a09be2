import { STALE_WRITE_MESSAGE } from '../domain/liveDesk';
import { createFakeApi, staleWrite } from '../testing/fakeApi';
import { ApiError, apiRequest, ifMatch, staleCurrentOf } from './client';

describe('writes made from a version (If-Match)', () => {
  it('names the version as an entity tag, and sends none without one', () => {
    expect(ifMatch(7)).toEqual({ 'If-Match': '"7"' });
    expect(ifMatch(0)).toEqual({ 'If-Match': '"0"' });
    expect(ifMatch(undefined)).toEqual({});
    expect(ifMatch(null)).toEqual({});
  });

  it("a 412's body reaches the caller: the row as the server holds it now", async () => {
    const api = createFakeApi();
    try {
      api.onPut('/api/patients/7').reply(412, staleWrite({ id: 7, name: 'Mia', version: 4 }));
      const failure = await apiRequest(
        { method: 'PUT', url: '/api/patients/7', data: {}, headers: ifMatch(3) },
        'Failed',
      ).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ApiError);
      expect((failure as ApiError).status).toBe(412);
      expect((failure as ApiError).message).toBe(STALE_WRITE_MESSAGE);
      expect(staleCurrentOf(failure)).toEqual({ id: 7, name: 'Mia', version: 4 });
      expect(api.sent('put')[0]?.ifMatch).toBe('"3"');
    } finally {
      api.restore();
    }
  });

  it('nothing else is a stale write', () => {
    expect(staleCurrentOf(new ApiError('Not found', 404, [], { message: 'Not found' }))).toBeNull();
    expect(staleCurrentOf(new ApiError(STALE_WRITE_MESSAGE, 412, [], { message: 'x' }))).toBeNull();
    expect(staleCurrentOf(new Error('boom'))).toBeNull();
    expect(staleCurrentOf(null)).toBeNull();
  });
});
