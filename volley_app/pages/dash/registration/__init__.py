"""Team registration: new team or waitlist, checkout with the card form, success, waitlist success, decline."""
