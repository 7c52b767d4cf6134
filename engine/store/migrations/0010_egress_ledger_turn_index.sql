-- Schema 10: the egress ledger's turn filter gets indexes ending in id, as
-- the folder and decision filters have (0008). Without them a turn's page
-- was read through the (turn, event_seq) key and sorted, and a turn's
-- denials through every denial of the ledger: 150-200 ms on a worker for
-- a million-row ledger (tests/bench/window, "(c)"), now under 1 ms.
CREATE INDEX egress_ledger_turn ON egress_ledger(turn, id);
CREATE INDEX egress_ledger_turn_decision ON egress_ledger(turn, decision, id);
