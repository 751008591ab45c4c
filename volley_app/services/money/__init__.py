"""Money: the fees a league charges and the card provider a payment goes through."""
