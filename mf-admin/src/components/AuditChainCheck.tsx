import type { ApiError, AuditChainCheckAnswer } from '@dental/shared';
import { useMutation } from '@dental/shared/kit';
import { Alert, Button } from '@dental/shared/ui';
import { verifyAuditChain } from '../api/audit';

/** What the check found, in the words an admin reads. */
export function chainVerdict(check: AuditChainCheckAnswer): string {
  if (check.holds || !check.first_unfit) return `The audit chain holds: ${check.records} records checked.`;
  const { id, place } = check.first_unfit;
  return `The chain breaks at record #${id} (place ${place}): it was altered.`;
}

/** Check the chain: whether any audit record was edited or removed behind the database's back. */
export function useAuditChainCheck() {
  return useMutation<AuditChainCheckAnswer, ApiError>({ mutationFn: verifyAuditChain });
}

export function AuditChainButton({ check }: { check: ReturnType<typeof useAuditChainCheck> }) {
  return (
    <Button loading={check.isPending} onClick={() => check.mutate()}>
      Check the chain
    </Button>
  );
}

/** The check's answer, under the heading until it is closed (a failed check is the page's banner). */
export function AuditChainResult({ check }: { check: ReturnType<typeof useAuditChainCheck> }) {
  if (!check.data) return null;
  return (
    <Alert
      role="status"
      type={check.data.holds ? 'success' : 'error'}
      showIcon
      title={chainVerdict(check.data)}
      closable={{ onClose: () => check.reset(), 'aria-label': 'Dismiss' }}
    />
  );
}
