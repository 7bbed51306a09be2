import { type ApiError, useAuthStore, type WireUser } from '@dental/shared';
import { useMutation } from '@dental/shared/kit';
import { Alert, App, Button, Flex, KeyOutlined, LogoutOutlined, Typography } from '@dental/shared/ui';
import { useId, useState } from 'react';
import { endUserSessions, resetUserFactor } from '../api/users';

type SignInAction = 'signOut' | 'resetFactor';

/** What the last action came to: the server's own sentence, said as it came. */
interface Outcome {
  ok: boolean;
  text: string;
}

/**
 * The Edit User form's 'Sign-in' section: an admin signs the user out on every device, or resets
 * their two-step sign-in (a lost phone). Each is asked first, saying what happens; the server's
 * answer, or its refusal, is shown below the buttons.
 */
export function UserSignInActions({ user }: { user: WireUser }) {
  const { modal } = App.useApp();
  const headingId = useId();
  const selfId = useAuthStore((state) => state.user?.id);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const action = useMutation({
    mutationFn: (which: SignInAction) =>
      which === 'signOut' ? endUserSessions(user.id) : resetUserFactor(user.id),
    onMutate: () => setOutcome(null),
    onSuccess: (answer) => setOutcome({ ok: true, text: answer.message }),
    onError: (error) => setOutcome({ ok: false, text: (error as ApiError).message }),
  });
  const pending = (which: SignInAction) => action.isPending && action.variables === which;
  const self = user.id === selfId;
  const alsoHere = self ? ' This includes this session: you will be signed out here too.' : '';

  const ask = (which: SignInAction) =>
    modal.confirm({
      ...(which === 'signOut'
        ? {
            title: `Sign ${user.name} out everywhere?`,
            content: `Each of ${user.name}'s sessions ends, on every device: they must sign in again.${alsoHere}`,
            okText: 'Sign out everywhere',
          }
        : {
            title: `Reset ${user.name}'s two-step sign-in?`,
            content:
              `Their authenticator and recovery codes are removed and they are signed out everywhere. ` +
              `When the clinic requires two-step sign-in, they set it up again at their next sign-in.${alsoHere}`,
            okText: 'Reset two-step sign-in',
          }),
      okButtonProps: { danger: true },
      // The dialog waits for the answer; a refusal is shown in the section, not thrown again.
      onOk: () => action.mutateAsync(which).catch(() => undefined),
    });

  return (
    <section
      aria-labelledby={headingId}
      style={{ borderTop: '1px solid rgba(5, 5, 5, 0.06)', paddingTop: 16, marginTop: 8 }}
    >
      <Typography.Title level={5} id={headingId} style={{ marginTop: 0 }}>
        Sign-in
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        End {user.name}'s sessions on every device, or reset their two-step sign-in when they have lost their
        authenticator.
      </Typography.Paragraph>
      <Flex wrap gap={8}>
        <Button
          icon={<LogoutOutlined />}
          loading={pending('signOut')}
          disabled={action.isPending}
          onClick={() => ask('signOut')}
        >
          Sign out everywhere
        </Button>
        <Button
          icon={<KeyOutlined />}
          loading={pending('resetFactor')}
          disabled={action.isPending}
          onClick={() => ask('resetFactor')}
        >
          Reset two-step sign-in
        </Button>
      </Flex>
      {outcome && (
        <Alert
          type={outcome.ok ? 'success' : 'error'}
          role={outcome.ok ? 'status' : 'alert'}
          showIcon
          title={outcome.text}
          closable={{ onClose: () => setOutcome(null), 'aria-label': 'Dismiss' }}
          style={{ marginTop: 12 }}
        />
      )}
    </section>
  );
}
