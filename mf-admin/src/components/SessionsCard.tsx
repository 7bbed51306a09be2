import type { ApiError, SignedInSession } from '@dental/shared';
import { formatDateTime, useMutation, useQueryClient } from '@dental/shared/kit';
import { App, Button, Card, ErrorBanner, Spin, Tag, Typography } from '@dental/shared/ui';
import { List, Popconfirm } from '@dental/shared/ui/lists';
import { useState } from 'react';
import { endOtherSessions, endSession, securityKeys, useSessions } from '../api/security';

const FACTOR_WORDS: Record<SignedInSession['factor'], string> = {
  password: 'password',
  totp: 'password and code',
  recovery_code: 'password and recovery code',
};

/** Where you are signed in (Settings → Security): end any other session, or all of them. */
export function SessionsCard() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const sessions = useSessions();
  const [error, setError] = useState<string | null>(null);
  const others = (sessions.data ?? []).filter((session) => !session.current);

  const ended = (answer: { message: string }) => {
    setError(null);
    message.success(answer.message);
    void queryClient.invalidateQueries({ queryKey: securityKeys.sessions });
  };
  const failed = (failure: ApiError) => setError(failure.message);
  const endOne = useMutation({ mutationFn: endSession, onSuccess: ended, onError: failed });
  const endOthers = useMutation({ mutationFn: endOtherSessions, onSuccess: ended, onError: failed });

  return (
    <Card title="Where you're signed in" size="small">
      <ErrorBanner
        message={sessions.isError ? (sessions.error as ApiError).message : error}
        onRetry={sessions.isError ? () => void sessions.refetch() : undefined}
        onClose={sessions.isError ? undefined : () => setError(null)}
      />
      {sessions.isPending ? (
        <Spin aria-label="Loading your sessions" />
      ) : sessions.isError ? null : (
        <section aria-label="Signed-in sessions">
          <List
            dataSource={sessions.data ?? []}
            rowKey="id"
            renderItem={(session) => (
              <List.Item
                actions={
                  session.current
                    ? []
                    : [
                        <Popconfirm
                          key="end"
                          title="Sign this session out?"
                          okText="Sign out"
                          onConfirm={() => endOne.mutate(session.id)}
                        >
                          <Button
                            size="small"
                            aria-label={`Sign out ${session.browser} on ${session.system}`}
                          >
                            Sign out
                          </Button>
                        </Popconfirm>,
                      ]
                }
              >
                <List.Item.Meta
                  title={
                    <span>
                      {session.browser} on {session.system}{' '}
                      {session.current && <Tag color="green">This device</Tag>}
                    </span>
                  }
                  description={
                    <Typography.Text type="secondary">
                      {session.ip || 'Unknown address'} · signed in {formatDateTime(session.created_at)} with{' '}
                      {FACTOR_WORDS[session.factor]} · last used {formatDateTime(session.last_used_at)}
                    </Typography.Text>
                  }
                />
              </List.Item>
            )}
          />
        </section>
      )}
      {/* Below the list, not in the card's title bar: on a phone the title keeps its width. */}
      <Popconfirm
        title="Sign out all other sessions?"
        description="Every other browser signed in as you is signed out at its next step."
        okText="Sign out"
        onConfirm={() => endOthers.mutate()}
        disabled={others.length === 0}
      >
        <Button disabled={others.length === 0} loading={endOthers.isPending} style={{ marginTop: 8 }}>
          Sign out all other sessions
        </Button>
      </Popconfirm>
    </Card>
  );
}
