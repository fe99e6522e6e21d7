"""The 戒 protocol: sessions with labelled violations and look-alikes, a compliant one at scale."""
