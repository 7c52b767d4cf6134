-- Placeholder on the approvals branch only: the ledger branch (ledger36)
-- owns schema 8 under this very name; on merge its file takes this one's
-- place. Migrations are numbered without a gap, so 9 needs an 8.
SELECT 1;
