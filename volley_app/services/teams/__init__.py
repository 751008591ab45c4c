"""Teams: a league's teams and their records, registration and the waitlist, and the places a payment holds."""
