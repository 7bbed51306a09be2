import { QueryClient } from '@tanstack/react-query';
import { follows } from './follows';
import { pagedList } from './pageCursor';

interface Params {
  page?: number;
  search?: string;
}
interface Page {
  data: string[];
  next_cursor?: string;
}

describe('a page of a list as a query', () => {
  const keyOf = (params: Params) => ['rows', 'list', params] as const;

  it('asks a page after one already read from its cursor, and a jump by its number', async () => {
    const queryClient = new QueryClient();
    const asked: Array<Params & { after?: string }> = [];
    const getPage = async (params: Params & { after?: string }): Promise<Page> => {
      asked.push(params);
      return { data: [`page ${params.page ?? 1}`], next_cursor: `after-${params.page ?? 1}` };
    };
    const rows = pagedList({ keyOf, meta: follows('patient'), getPage });
    const page = (params: Params) => rows(queryClient, params);

    await queryClient.fetchQuery(page({ page: 1, search: 'an' }));
    await queryClient.fetchQuery(page({ page: 2, search: 'an' }));
    await queryClient.fetchQuery(page({ page: 5, search: 'an' }));
    expect(asked).toEqual([
      { page: 1, search: 'an' },
      { page: 2, search: 'an', after: 'after-1' },
      { page: 5, search: 'an' },
    ]);
  });

  it('is kept under its key, says what it follows, and keeps the last page on screen while the next loads', () => {
    const rows = pagedList({
      keyOf,
      meta: follows('appointment', 'patient'),
      getPage: async (_params: Params): Promise<Page> => ({ data: [] }),
    });
    const read = rows(new QueryClient(), { page: 3 });
    expect(read.queryKey).toEqual(['rows', 'list', { page: 3 }]);
    expect(read.meta?.follows).toEqual(['appointment', 'patient']);
    const shown = { data: ['page 2'] };
    expect(typeof read.placeholderData === 'function' && read.placeholderData(shown, undefined)).toBe(shown);
  });
});
