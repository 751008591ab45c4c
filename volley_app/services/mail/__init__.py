"""Email: the outbox and its sender, rendering the templates, the lists a player may leave, the newsletter, the admins' broadcasts, and the public inquiry forms mailed to the provider."""
